// lowertrace/mlir.h - the MLIR front end: trace any mlir::PassManager in process.
//
//   mlir::PassManager pm(&ctx);
//   lowertrace::mlir::attach(pm);      // no-op unless TL_LOWER_TRACE or enable()
//   pm.run(module);
//
// Nested pipelines: a pass anchored on many ops (canonicalize on each of 2,000
// func.func) gives ONE record per position in the nested pipeline. Its texts
// are the anchored ops printed in IR order, so records are identical with
// threading on or off; the anchor field says how many ops ran and changed.
#pragma once

#include "lowertrace/session.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mlir {
class DialectRegistry;
class Pass;
class PassManager;
class Operation;
}  // namespace mlir

namespace lowertrace::mlir {

struct AttachOptions {
  std::string script;  // <script> folder (default: program name)
  std::string input;   // shown in the report header
  std::string tool = "lowertrace";
  // Phase label of this pass manager's records; "" keeps the session's
  // current phase. A label repeated in one session becomes run<N>_<label>.
  std::string phase = "pipeline";
  // Use this session instead of starting one (e.g. to add a codegen record later).
  std::shared_ptr<Session> session;
  // Whether the pass manager verifies the IR after every pass (the default;
  // mlir-opt's --verify-each=0 turns it off). Verified IR is printed without
  // verifying it again, which halves the cost of a snapshot; otherwise the
  // printer checks first and prints IR a pass left invalid in generic form,
  // as mlir-opt does, instead of handing it to a custom printer.
  bool ir_verified = true;
};

// Adds the tracing instrumentation to `pm` when tracing is enabled (or when
// opts.session is given) and returns the session; returns nullptr otherwise.
// The session finishes when the last reference (the pass manager's) goes away.
std::shared_ptr<Session> attach(::mlir::PassManager &pm, AttachOptions opts = {});

// The original's lower_trace(func, passes): runs `pipeline` (textual,
// e.g. "builtin.module(canonicalize,cse)") on `op` with tracing forced on in
// `mode`, and returns the records. `ok` says whether the pipeline succeeded.
struct OneShotResult {
  bool ok = false;
  std::string error;  // pipeline parse error or diagnostics of the failing pass
  std::vector<LowerRecord> records;
  std::string report;  // report.html path in html/both mode
};
OneShotResult trace_pipeline(::mlir::Operation *op, std::string_view pipeline,
                             Mode mode = Mode::Terminal, std::string trace_dir = {});

// --- codegen: the last step of the trace -----------------------------------
// Targets: "llvm-ir" (LLVM dialect -> LLVM IR), "ptx" (each gpu.module through
// the NVPTX back end, or the PTX already inside gpu.binary ops), "asm" (LLVM
// dialect -> host assembly).
struct GeneratedCode {
  std::string kernel;      // gpu.module / module name
  std::string lowered_ir;  // the MLIR handed to the back end
  std::string source;      // what the back end produced
  std::string language;    // "ptx", "llvm-ir", "asm"
};
// Returns false with *error set when the IR cannot be lowered that way.
bool generate_code(::mlir::Operation *module, std::string_view target,
                   std::vector<GeneratedCode> &out, std::string *error);
// Registers the LLVM IR translations that generate_code needs.
void register_codegen_translations(::mlir::DialectRegistry &registry);
bool is_codegen_target(std::string_view target);

// A module pass that runs generate_code at the end of a pipeline and records
// each result on the session (status codegen, three-file workflow). The
// sources the workflow returns are appended to *output. It is never traced
// as a pass itself.
struct CodegenState {
  std::shared_ptr<Session> session;  // set after attach(); may stay null
  std::string target;
  std::string output;  // concatenated sources to compile / write
  std::string error;
  std::vector<std::string> tags;  // workflow tag per kernel
};
std::unique_ptr<::mlir::Pass> create_codegen_pass(std::shared_ptr<CodegenState> state);
inline constexpr std::string_view kCodegenPassArgument = "lowertrace-codegen";

}  // namespace lowertrace::mlir
