// lowertrace/dump.h - turning compiler IR dumps into traced runs.
//
// Many compilers cannot load our instrumentation (Triton runs its pass
// managers inside a Python extension; a user's mlir-opt or clang is whatever
// they have), but all of them can print IR around passes. An Importer reads
// those dumps as a stream (bounded memory: it keeps one dump's text at a time)
// and replays them as pass events on one Target per compilation; a Target is
// normally a Session (see make_session_target), so imports get the same raw
// files, trace.json and report as live capture.
//
// Understood banners (any mix, in one stream or several files):
//   MLIR   // -----// IR Dump Before|After <Pass> [Failed] (<arg>) [('<op>' operation[: @sym])] //----- //
//          // -----// IR Dump Before|After <Pass>: <arg>{opts} [('<op>' ...)] //----- //   (LLVM 23)
//          // -----// SoftwarePipeliner internal IR Dump After: <step>                    (Triton)
//   LLVM   [; ]*** IR Dump Before|After <Pass> on <unit> [(invalidated)] ***             (new PM)
//          *** IR Dump At Start ***, ... omitted because no change ***, ... filtered out ***,
//          *** IR Pass <P> on <unit> ignored ***, *** IR Pass <P> invalidated ***,
//          *** IR Deleted After <P> on <unit> ***                                       (-print-changed)
//          *** IR Dump After <Description> (<arg>) [on <F>] ***                          (legacy PM IR)
//   MIR    # *** IR Dump Before|After <Description> (<arg>) ***:
#pragma once

#include "lowertrace/config.h"
#include "lowertrace/record.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lowertrace {
class Session;
}

namespace lowertrace::dump {

enum class Format { Auto, Mlir, Llvm, Triton };
std::string_view to_string(Format f);
std::optional<Format> parse_format(std::string_view s);

// Where replayed events go. Mirrors the Session API so parsers can be tested
// without an engine (tests record events; production forwards to a Session).
class Target {
public:
  virtual ~Target() = default;
  virtual Snapshot intern(std::string_view text) = 0;
  // Replaces the current phase label ("" = back to the session's default).
  virtual void set_phase(std::string_view label) = 0;
  // `before` is null when the dump does not show the before-text.
  virtual int begin_pass(std::string_view name, Snapshot before, std::string_view ir_lang) = 0;
  virtual void end_pass(int index, Snapshot after) = 0;
  virtual void fail_pass(int index, std::string_view message) = 0;
  // A failure whose IR after the failure is known (MLIR "After ... Failed").
  virtual void fail_pass_with_ir(int index, std::string_view message, Snapshot after) {
    (void)after;
    fail_pass(index, message);
  }
  virtual int skipped_pass(std::string_view name, Snapshot at, std::string_view reason) = 0;
  virtual void annotate(int index, std::string_view anchor, std::string_view detail) = 0;
  // The final codegen record (Triton: the PTX). Returns the source to compile
  // (the edited working copy when the user changed it), or "" for "unchanged".
  virtual std::string codegen(std::string_view lowered_ir, std::string_view ir_lang,
                              std::string_view source, std::string_view language,
                              std::string_view kernel) = 0;
  virtual void finish(std::string_view error) = 0;
};

// What a new Target is for: one compilation. For Triton that is one kernel
// compile (`kernel` is its name); otherwise one per import, kernel = "".
struct Compilation {
  std::string kernel;
  int ordinal = 0;  // n-th compilation of this kernel name in the input, from 0
};
using TargetFactory = std::function<std::unique_ptr<Target>(const Compilation &)>;

// A Target that forwards to a Session it owns.
std::unique_ptr<Target> make_session_target(std::unique_ptr<Session> session);

struct ImportOptions {
  Format format = Format::Auto;
  // Triton TRITON_KERNEL_DUMP/TRITON_DUMP_DIR folder: stage files
  // (<hash>/<kernel>.{ttir,ttgir,llir,ptx}) close the last pass of a stage and
  // give the PTX codegen record. Empty: none.
  std::string stage_dir;
  // Triton: every dump of one compile arrives in one stream in the order it
  // was printed (an in-process capture of the compile's stderr), so records
  // are delivered as they complete, not all at the end of the input.
  bool in_order = false;
  // Called now and then with (bytes read so far, total bytes or 0 if unknown).
  std::function<void(std::uint64_t, std::uint64_t)> progress;
  // Triton: the generated PTX to record for (kernel, stage folder), given the
  // PTX the stage folder holds. `lowertrace run` uses it when it injected an
  // edited working copy, which Triton then writes in place of its own output.
  std::function<std::string(const std::string &kernel, const std::string &stage_dir,
                            const std::string &dumped)>
      lowered_for;
};

// A codegen record made from a Triton stage file.
struct CodegenInfo {
  std::string kernel;
  std::string stage_dir;  // <TRITON_DUMP_DIR>/<hash> it came from
  std::string lowered;    // the PTX Triton wrote
  std::string source;     // what Target::codegen says to compile (the edited copy if any)
};

struct ImportResult {
  std::uint64_t bytes = 0;
  int dumps = 0;      // banners recognised
  int records = 0;    // pass events replayed (begin_pass + skipped_pass)
  int compilations = 0;
  Format detected = Format::Auto;
  std::vector<CodegenInfo> codegens;
  std::vector<std::string> warnings;  // also printed with util::warn
};

// Streaming importer: feed any number of inputs, in the order the compiler
// wrote them (Triton: the MLIR_DUMP_PATH file, then the stderr with the LLVM
// dumps), then finish().
class Importer {
public:
  Importer(ImportOptions opts, TargetFactory factory);
  ~Importer();
  Importer(const Importer &) = delete;
  Importer &operator=(const Importer &) = delete;

  // Appends bytes of the current input. `name` labels warnings.
  void feed(std::string_view bytes);
  // Ends the current input (a dump cut off here is reported as truncated).
  void end_input();
  // Reads a whole file in chunks (feed + end_input). Returns "" or an error.
  std::string feed_file(const std::string &path);
  // Resolves what is still open, runs codegen records, finishes all targets.
  ImportResult finish();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Imports files (a folder: its files, natural name order, recursively) into
// Sessions built from `cfg`: one per compilation, script = the kernel name or
// `script` (default: the first input's stem). Unreadable inputs are warnings.
struct ImportJob {
  std::vector<std::string> inputs;
  ImportOptions options;
  std::string script;
  std::string tool = "lowertrace import";
  std::string input_label;  // what the report says was traced (default: inputs)
};
ImportResult import_into_sessions(const ImportJob &job, const Config &cfg);
// The files a folder input stands for, in the order they are imported.
std::vector<std::string> expand_input(const std::string &path);

// For separating a captured stderr: a banner line starts a dump; a compiler
// diagnostic ("file:1:2: error: ...") is the tool's own even inside one.
bool is_banner_line(std::string_view line);
bool is_diagnostic_line(std::string_view line);

// Convenience: whether `head` (the first bytes of an input) looks like a dump.
Format detect_format(std::string_view head);

}  // namespace lowertrace::dump
