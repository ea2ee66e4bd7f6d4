// The C ABI of include/lowertrace/lowertrace_c.h over the C++ engine.
// Every entry point catches everything: an exception must never unwind into
// a foreign caller (ctypes would abort the interpreter).
#include "lowertrace/lowertrace_c.h"

#include "capture/triton/compile_import.h"
#include "lowertrace/config.h"
#include "util/fs.h"
#include "util/log.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <cstring>
#include <filesystem>
#include <string>

#define LT_API extern "C" __attribute__((visibility("default")))

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

char *dup_out(const std::string &s) {
  char *p = static_cast<char *>(std::malloc(s.size() + 1));
  if (p) std::memcpy(p, s.c_str(), s.size() + 1);
  return p;
}

char *error_json(const std::string &e) { return dup_out(json{{"error", e}}.dump()); }

template <class T> lowertrace::Setting<T> setting(int state, T value) {
  if (state == LT_NONE) return lowertrace::none;
  if (state == LT_VALUE) return value;
  return {};
}

std::string str(const char *p) { return p ? p : ""; }

// A run folder, its trace.json, or a <script> folder (its newest run).
std::string resolve_run(const std::string &arg) {
  fs::path p(arg);
  std::error_code ec;
  if (fs::is_regular_file(p, ec) && p.filename() == "trace.json") return p.parent_path().string();
  if (fs::exists(p / "trace.json", ec)) return p.string();
  std::string best;
  if (fs::is_directory(p / ".run_records", ec))
    for (const auto &e : fs::directory_iterator(p / ".run_records", ec))
      // run_<YYYYmmdd_HHMMSS_ffffff>_...: name order is time order.
      if (fs::exists(e.path() / "trace.json") && e.path().string() > best) best = e.path().string();
  return best;
}

}  // namespace

LT_API int lt_abi_version(void) { return LT_C_ABI_VERSION; }

LT_API void lt_enable(int mode_state, const char *mode, int dir_state, const char *dir, int cg_state,
                      const char *cg) {
  try {
    lowertrace::EnableOptions o;
    if (mode_state == LT_NONE) o.mode = lowertrace::none;
    else if (mode_state == LT_VALUE) {
      bool unknown = false;
      o.mode = lowertrace::parse_mode(str(mode), &unknown);
      if (unknown) lowertrace::util::warn("unknown trace mode '" + str(mode) + "', using html");
    }
    o.trace_dir = setting<std::string>(dir_state, str(dir));
    o.codegen_output = setting<std::string>(cg_state, str(cg));
    lowertrace::enable(o);
  } catch (...) {
  }
}

LT_API void lt_disable(void) {
  try {
    lowertrace::disable();
  } catch (...) {
  }
}

LT_API void lt_reset(void) {
  try {
    lowertrace::reset();
  } catch (...) {
  }
}

LT_API char *lt_config_json(void) {
  try {
    lowertrace::Config c = lowertrace::current_config();
    json j;
    j["mode"] = std::string(lowertrace::to_string(c.mode));
    j["trace_dir"] = c.trace_dir;
    if (c.codegen_output.is_none()) j["codegen_output"] = nullptr;
    else if (c.codegen_output.has_value()) j["codegen_output"] = c.codegen_output.value();
    else j["codegen_output"] = "unset";
    return dup_out(j.dump());
  } catch (const std::exception &e) {
    return error_json(e.what());
  }
}

LT_API char *lt_read_run_json(const char *path) {
  try {
    std::string dir = resolve_run(str(path));
    if (dir.empty()) return error_json(str(path) + ": not a run folder (no trace.json)");
    auto text = lowertrace::util::read_file(dir + "/trace.json");
    if (!text) return error_json(dir + "/trace.json: cannot read");
    json t = json::parse(*text, nullptr, false);
    if (t.is_discarded() || t.value("format", "") != "lowertrace-trace" || t.value("version", 0) != 1)
      return error_json(dir + "/trace.json: not a lowertrace trace (format version 1)");
    return dup_out(json{{"run_dir", dir}, {"trace", std::move(t)}}.dump());
  } catch (const std::exception &e) {
    return error_json(e.what());
  }
}

LT_API void *lt_triton_begin(const char *request) {
  try {
    json q = json::parse(str(request));
    lowertrace::triton::CompileCapture c;
    c.kernel = q.value("kernel", "kernel");
    c.variant = q.value("variant", "v");
    c.dump_file = q.value("dump_file", "");
    c.stage_dir = q.value("stage_dir", "");
    c.input = q.value("input", "");
    if (q.contains("describe")) c.describe_json = q["describe"].dump();
    return new lowertrace::triton::CompileImport(std::move(c), lowertrace::current_config());
  } catch (const std::exception &e) {
    lowertrace::util::warn(std::string("triton capture not started: ") + e.what());
    return nullptr;
  }
}

LT_API char *lt_triton_end(void *handle, const char *error) {
  if (!handle) return error_json("triton capture was not started");
  auto *imp = static_cast<lowertrace::triton::CompileImport *>(handle);
  try {
    auto o = imp->finish(str(error));
    delete imp;
    json a;
    a["source"] = o.source;
    a["edited"] = o.edited;
    a["run_dir"] = o.run_dir;
    a["working_copy"] = o.working_copy;
    a["index"] = o.index_html;
    a["dumps"] = o.dumps;
    a["records"] = o.records;
    a["warnings"] = o.warnings;
    return dup_out(a.dump());
  } catch (const std::exception &e) {
    return error_json(std::string("triton import failed: ") + e.what());
  }
}

// While a Python hook owns fd 2 for a compile's dumps, C stdio's stderr
// (which the engine's console lines use) points at the user's stderr.
namespace {
std::FILE *g_saved_stderr = nullptr;
}

LT_API int lt_stderr_to(int fd) {
  if (g_saved_stderr) return 0;
  int d = ::dup(fd);
  if (d < 0) return -1;
  std::FILE *f = ::fdopen(d, "w");
  if (!f) {
    ::close(d);
    return -1;
  }
  std::setvbuf(f, nullptr, _IONBF, 0);
  std::fflush(stderr);
  g_saved_stderr = stderr;
  stderr = f;
  return 0;
}

LT_API void lt_stderr_restore(void) {
  if (!g_saved_stderr) return;
  std::FILE *f = stderr;
  std::fflush(f);
  stderr = g_saved_stderr;
  g_saved_stderr = nullptr;
  // Closed lazily: a thread may still be writing through the old pointer.
  static std::FILE *previous = nullptr;
  if (previous) std::fclose(previous);
  previous = f;
}

LT_API void lt_free(char *p) { std::free(p); }
