// capture/mlir/traced_backend.h - the LLVM steps of codegen, traced in process.
//
// gpu-module-to-binary runs LLVM's optimiser and the NVPTX back end as one
// opaque step (NVPTXSerializer, no instrumentation). With a session, codegen
// serialises each gpu.module itself instead, through a SerializeGPUModuleBase
// whose two LLVM steps are ours: the optimiser (the default<On> pipeline
// makeOptimizingTransformer builds, with the new-PM tracer attached: phase
// "llvm") and the ISA translation (addPassesToEmitFile into a
// TracingPassManager: phase "mir"). Everything else (translation, libdevice
// linking, target machine) is the base class's, so the PTX is the same bytes.
#pragma once

#include "lowertrace/session.h"

#include <string>

namespace mlir {
class Operation;
namespace NVVM {
class NVVMTargetAttr;
}
}  // namespace mlir
namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace lowertrace::mlir {

struct TracedCode {
  std::string code;  // PTX or assembly
  std::string mir;   // each function's last machine code: what the asm printer printed from
};

// PTX for one gpu.module and one of its #nvvm.target attributes.
bool traced_ptx(::mlir::Operation &gpu_module, ::mlir::NVVM::NVVMTargetAttr target, Session &session,
                TracedCode &out, std::string *error);

// Assembly for an LLVM module through `tm`'s codegen pipeline (phase "mir").
bool traced_asm(llvm::Module &module, llvm::TargetMachine &tm, Session &session, TracedCode &out,
                std::string *error);

}  // namespace lowertrace::mlir
