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

}  // namespace lowertrace::mlir
