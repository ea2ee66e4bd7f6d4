/* lowertrace/lowertrace_c.h - the engine behind a small, stable C ABI.
 *
 * For bindings that must survive compiler and interpreter upgrades: the
 * Python package loads liblowertrace_c.so with ctypes, so one build serves
 * every Python version (a pybind11 extension is built per Python ABI).
 * Only plain C types cross the boundary; structured values are UTF-8 JSON
 * strings returned in memory the caller frees with lt_free(). No function
 * throws; a failure is reported inside the returned JSON ("error") or as a
 * warning on stderr, never by aborting the host process.
 *
 * Tri-state settings mirror lowertrace::Setting (config.h): LT_UNSET falls
 * back to the environment, LT_NONE is an explicit None, LT_VALUE uses the
 * string given.
 */
#ifndef LOWERTRACE_LOWERTRACE_C_H
#define LOWERTRACE_LOWERTRACE_C_H

#ifdef __cplusplus
extern "C" {
#endif

#define LT_C_ABI_VERSION 1

enum { LT_UNSET = 0, LT_NONE = 1, LT_VALUE = 2 };

/* LT_C_ABI_VERSION of the loaded library; a binding refuses another major. */
int lt_abi_version(void);

/* lowertrace::enable(EnableOptions): each argument is (state, value). An
 * unknown mode string turns tracing on in html mode with a warning, like
 * TL_LOWER_TRACE does. */
void lt_enable(int mode_state, const char *mode, int trace_dir_state, const char *trace_dir,
               int codegen_state, const char *codegen_output);
void lt_disable(void);
void lt_reset(void);

/* {"mode": "off|terminal|html|both", "trace_dir": "...",
 *  "codegen_output": null | "unset" | "<path>"} as a session starting now sees it. */
char *lt_config_json(void);

/* A run read back: `path` is a run folder, its trace.json, or a <script>
 * folder (its newest run). {"run_dir": "...", "trace": {trace.json}} or
 * {"error": "..."}. */
char *lt_read_run_json(const char *path);

/* One Triton compile captured in process, imported as one run (one variant)
 * while it is being written (capture/triton/compile_import.h).
 * lt_triton_begin(request): request (JSON) = {"kernel", "variant",
 * "dump_file" (must exist), "stage_dir", "input", "describe": {...}}; returns
 * a handle, or NULL (a warning was printed). lt_triton_end(handle, error)
 * finishes it (error: the compile's exception or ""), frees the handle and
 * answers {"source": the PTX to compile, "" = Triton's own; "edited",
 * "run_dir", "working_copy", "index", "dumps", "records", "warnings": [...]}. */
void *lt_triton_begin(const char *request);
char *lt_triton_end(void *handle, const char *error);

/* While a caller has pointed fd 2 elsewhere (a compile's dump capture), the
 * engine's own console output (C stdio stderr) goes to `fd` instead, e.g. a
 * dup of the original stderr: lt_stderr_to(fd) ... lt_stderr_restore().
 * Returns 0, or -1 if it cannot (output then follows fd 2). */
int lt_stderr_to(int fd);
void lt_stderr_restore(void);

void lt_free(char *p);

#ifdef __cplusplus
}
#endif

#endif /* LOWERTRACE_LOWERTRACE_C_H */
