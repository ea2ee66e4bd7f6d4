// capture/llvm/machine_tracer.h - records the legacy codegen pipeline's passes (MIR).
//
// LLVM 22 runs codegen (IR passes before instruction selection, then the
// machine-function passes, then the asm printer) on the legacy pass manager,
// which has no instrumentation callbacks. Where we own that pass manager (the
// MLIR codegen step, the llc-like test driver), TracingPassManager::add wraps
// every pass TargetMachine::addPassesToEmitFile adds between two probe passes
// of the same kind (function, loop, module) that preserve everything:
//
//   probe(before P)  P  probe(after P)
//
// The before-probe requires what P requires, so analyses and the non-analysis
// passes the legacy pass manager schedules on its own for P (slotindexes,
// livevars, loop-simplify...) run before it; the probe finds those in its
// pass manager's pass list and records them too, from the previous probe's
// text to its own. Recorded are exactly the passes -print-after-all prints
// after (registered, not analyses), on the unit it prints: machine functions
// as MIR, IR-level passes as IR. A machine function is printed only when its
// fingerprint (mir_fingerprint.h) moved. Skipped passes (opt-bisect, optnone)
// are seen through an OptPassGate installed on the context for the run that
// forwards to the one it replaces.
#pragma once

#include "lowertrace/session.h"

#include <llvm/IR/LegacyPassManager.h>

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
class Pass;
class PMTopLevelManager;
}  // namespace llvm

namespace lowertrace::llvm_capture {

struct CodegenTrace;

class TracingPassManager : public llvm::legacy::PassManager {
public:
  // Records go to `session`, in its current phase.
  explicit TracingPassManager(Session &session);
  ~TracingPassManager() override;

  void add(llvm::Pass *p) override;
  // legacy::PassManager::run with the pass gate installed on m's context.
  bool run(llvm::Module &m);

  // Each function's last machine-function text, in module order: what the
  // asm printer printed from (the input of the codegen record).
  std::string final_machine_code() const;
  std::size_t records() const;

private:
  void add_probe(llvm::Pass *probe);
  void collect_required(const void *id, std::vector<const void *> &out, int depth);

  std::unique_ptr<CodegenTrace> t_;
  int last_kind_ = -1;  // llvm::PassKind of the last pass wrapped
  llvm::PMTopLevelManager *tpm_ = nullptr;
};

}  // namespace lowertrace::llvm_capture
