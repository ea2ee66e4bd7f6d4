// capture/triton/compile_import.h - one in-process Triton compile -> one run.
//
// The Python hooks (python/lowertrace/_triton.py) capture each compile on its
// own channel: the compile's stderr (MLIR_ENABLE_DUMP and LLVM_IR_ENABLE_DUMP
// text) goes to a file of its own while the compile holds the process's trace
// lock, and every stage's output is written to <stage_dir>/<hash>/<kernel>.<ext>.
// Nothing is guessed from banners about which kernel or variant it was: the
// hooks know (Triton's cache hash, constexprs, signature, options).
//
// Each variant is its own run in <trace_dir>/<kernel>/ with its own PTX
// working copy codegen.<kernel>.<variant>.ptx: an edit there is compiled for
// that variant only, and survives reruns because the variant id (a prefix of
// Triton's hash) does. <trace_dir>/<kernel>/index.html lists the variants.
#pragma once

#include "lowertrace/config.h"

#include <memory>
#include <string>
#include <vector>

namespace lowertrace::triton {

struct CompileCapture {
  std::string kernel;      // Triton's kernel name
  std::string variant;     // short, stable id of the compiled variant
  std::string dump_file;   // the compile's own stderr: MLIR + LLVM/MIR dumps
  std::string stage_dir;   // <dir>/<hash>/<kernel>.{ttir,ttgir,llir,ptx}
  std::string input;       // what the report says was traced
  std::string describe_json = "{}";  // what distinguishes the variant (shown in the index)
};

struct CompileOutcome {
  std::string source;  // PTX to compile from: the edited working copy, or "" = Triton's own
  bool edited = false;
  std::string run_dir, working_copy, index_html;
  int dumps = 0, records = 0;
  std::vector<std::string> warnings;
};

// Imports one capture into a run of `cfg` while the compile is still
// writing it: a thread follows dump_file from the start, so parsing, diffing
// and raw files overlap with Triton printing its dumps (the compile itself
// runs on other cores), and only the tail and the report are left when the
// compile ends. Diagnostics in the capture ("x.py:3:4: error: ...") are
// echoed to stderr at the end: they were the user's to see.
class CompileImport {
public:
  CompileImport(CompileCapture c, Config cfg);  // dump_file must exist
  ~CompileImport();                             // finish() if not called
  CompileImport(const CompileImport &) = delete;
  CompileImport &operator=(const CompileImport &) = delete;
  // The compile ended (its stage files are written): imports the rest,
  // ends the run and updates the kernel's variant index. `error`: the
  // exception the compile raised, "" if none. Call once.
  CompileOutcome finish(const std::string &error);

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lowertrace::triton
