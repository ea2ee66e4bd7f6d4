#include "traced_backend.h"

#include "capture/llvm/machine_tracer.h"
#include "capture/llvm/tracer.h"

#include <mlir/Dialect/GPU/IR/CompilationInterfaces.h>
#include <mlir/Dialect/LLVMIR/NVVMDialect.h>
#include <mlir/Target/LLVM/NVVM/Utils.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassInstrumentation.h>
#include <llvm/Passes/OptimizationLevel.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace lowertrace::mlir {

namespace {

// Runs `tm`'s codegen pipeline on `m` in a TracingPassManager, as
// ModuleToObject::translateModuleToISA does in a plain legacy::PassManager.
bool emit_traced(llvm::Module &m, llvm::TargetMachine &tm, Session &session, TracedCode &out) {
  llvm::SmallString<0> isa;
  llvm::raw_svector_ostream stream(isa);
  {
    llvm::buffer_ostream pstream(stream);  // dropped before isa is read: nothing stays buffered
    llvm_capture::TracingPassManager pm(session);
    if (tm.addPassesToEmitFile(pm, pstream, nullptr, llvm::CodeGenFileType::AssemblyFile)) return false;
    auto phase = session.phase("mir");
    pm.run(m);
    out.mir = pm.final_machine_code();
  }
  out.code.assign(isa.begin(), isa.end());
  return true;
}

class TracedNvptx : public ::mlir::NVVM::SerializeGPUModuleBase {
public:
  TracedNvptx(::mlir::Operation &module, ::mlir::NVVM::NVVMTargetAttr target,
              const ::mlir::gpu::TargetOptions &options, Session &session)
      : SerializeGPUModuleBase(module, target, options), session_(session) {}
  TracedCode result;

protected:
  // ModuleToObject::optimizeModule, with the pass instrumentation it lacks.
  llvm::LogicalResult optimizeModule(llvm::Module &module, int level) override {
    if (level < 0 || level > 3) return getOperation().emitError() << "Invalid optimization level: " << level << ".";
    llvm::FailureOr<llvm::TargetMachine *> tm = getOrCreateTargetMachine();
    if (llvm::failed(tm))
      return getOperation().emitError() << "Target Machine unavailable for triple " << triple
                                        << ", can't optimize with LLVM\n";
    (*tm)->setOptLevel(static_cast<llvm::CodeGenOptLevel>(level));
    // As mlir::makeOptimizingTransformer builds it.
    const llvm::OptimizationLevel levels[] = {llvm::OptimizationLevel::O0, llvm::OptimizationLevel::O1,
                                              llvm::OptimizationLevel::O2, llvm::OptimizationLevel::O3};
    llvm::PassInstrumentationCallbacks pic;
    llvm_capture::Tracer tracer(session_);
    tracer.attach(pic);
    llvm::LoopAnalysisManager lam;
    llvm::FunctionAnalysisManager fam;
    llvm::CGSCCAnalysisManager cgam;
    llvm::ModuleAnalysisManager mam;
    llvm::PipelineTuningOptions tuning;
    tuning.LoopUnrolling = true;
    tuning.LoopInterleaving = true;
    tuning.LoopVectorization = true;
    tuning.SLPVectorization = true;
    llvm::PassBuilder pb(*tm, tuning, std::nullopt, &pic);
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
    llvm::ModulePassManager mpm;
    mpm.addPass(pb.buildPerModuleDefaultPipeline(levels[level]));
    auto phase = session_.phase("llvm");
    mpm.run(module, mam);
    return llvm::success();
  }

  // NVPTXSerializer::moduleToObject for the assembly format.
  llvm::FailureOr<llvm::SmallVector<char, 0>> moduleToObject(llvm::Module &module) override {
    llvm::FailureOr<llvm::TargetMachine *> tm = getOrCreateTargetMachine();
    if (llvm::failed(tm))
      return getOperation().emitError() << "Target Machine unavailable for triple " << triple
                                        << ", can't optimize with LLVM\n";
    if (!emit_traced(module, **tm, session_, result))
      return getOperation().emitError() << "Failed translating the module to ISA.";
    return llvm::SmallVector<char, 0>(result.code.begin(), result.code.end());
  }

private:
  Session &session_;
};

}  // namespace

bool traced_ptx(::mlir::Operation &gpu_module, ::mlir::NVVM::NVVMTargetAttr target, Session &session,
                TracedCode &out, std::string *error) {
  // What gpu-module-to-binary{format=isa} hands the NVVM target.
  ::mlir::gpu::TargetOptions options({}, {}, {}, {}, ::mlir::gpu::CompilationTarget::Assembly);
  TracedNvptx serializer(gpu_module, target, options, session);
  serializer.init();
  if (!serializer.run()) {
    *error = "the NVPTX back end failed on this gpu.module";
    return false;
  }
  out = std::move(serializer.result);
  return true;
}

bool traced_asm(llvm::Module &module, llvm::TargetMachine &tm, Session &session, TracedCode &out,
                std::string *error) {
  if (emit_traced(module, tm, session, out)) return true;
  *error = "the host target cannot emit assembly";
  return false;
}

}  // namespace lowertrace::mlir
