// attach() and the one-shot trace_pipeline() helper.
#include "lowertrace/mlir.h"

#include "capture/crash_hook.h"
#include "capture/mlir/instrumentation.h"

#include <mlir/IR/Operation.h>
#include <mlir/Pass/PassManager.h>
#include <mlir/Pass/PassRegistry.h>
#include <llvm/Support/raw_ostream.h>

namespace lowertrace::mlir {

std::shared_ptr<Session> attach(::mlir::PassManager &pm, AttachOptions opts) {
  std::shared_ptr<Session> session = opts.session;
  if (!session) {
    Config cfg = current_config();
    if (!cfg.enabled()) return nullptr;
    session = std::make_shared<Session>(
        SessionOptions{opts.script, opts.input, opts.tool, /*install_default_sinks=*/true}, cfg);
  }
  if (!session->enabled()) return nullptr;
  capture::hook_crashes();  // a crashing pass still ends as a failed record
  pm.addInstrumentation(
      std::make_unique<TraceInstrumentation>(session, pm.getContext(), opts.phase,
                                             opts.ir_verified));
  return session;
}

OneShotResult trace_pipeline(::mlir::Operation *op, std::string_view pipeline, Mode mode,
                             std::string trace_dir) {
  OneShotResult out;
  std::string err;
  llvm::raw_string_ostream es(err);
  auto parsed = ::mlir::parsePassPipeline(llvm::StringRef(pipeline.data(), pipeline.size()), es);
  if (::mlir::failed(parsed)) {
    out.error = es.str();
    // The usual cause in a user's own program: passes are registered by the
    // program (mlir-opt registers all of them), not by parsing a pipeline.
    if (out.error.find("does not refer to a registered pass") != std::string::npos)
      out.error += " (register the passes first, e.g. mlir::registerTransformsPasses() for "
                   "canonicalize and cse, or mlir::registerAllPasses())";
    return out;
  }
  ::mlir::PassManager pm(op->getContext(), parsed->getOpAnchorName());
  static_cast<::mlir::OpPassManager &>(pm) = std::move(*parsed);

  Config cfg = current_config();
  cfg.mode = mode == Mode::Off ? Mode::Terminal : mode;
  if (!trace_dir.empty()) cfg.trace_dir = trace_dir;
  auto session = std::make_shared<Session>(
      SessionOptions{"lower_trace", std::string(pipeline), "lowertrace::mlir::trace_pipeline", true},
      cfg);
  {
    auto scope = session->phase("lower_trace");
    AttachOptions ao;
    ao.session = session;
    ao.phase = "";
    attach(pm, ao);
    out.ok = ::mlir::succeeded(pm.run(op));
  }
  // The instrumentation lives in `pm`; the session outlives it here.
  session->finish(out.ok ? std::string_view() : std::string_view("pipeline failed"));
  out.records = session->records();
  for (const auto &r : out.records)
    if (r.status == STATUS_FAILED && out.error.empty()) out.error = r.error_msg;
  if (wants_html(cfg.mode)) out.report = session->run().script_dir + "/report.html";
  return out;
}

}  // namespace lowertrace::mlir
