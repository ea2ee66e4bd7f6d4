// Codegen for the MLIR front end: the final step after the pass pipeline.
//
// The generated text becomes a `codegen` record (lowered MLIR -> source) and
// goes through the three-file edit-and-recompile workflow, so an edited
// working copy is what the tool emits next time.
#include "lowertrace/mlir.h"

#include "traced_backend.h"

#include <mlir/Dialect/GPU/IR/GPUDialect.h>
#include <mlir/Dialect/LLVMIR/LLVMDialect.h>
#include <mlir/Dialect/LLVMIR/NVVMDialect.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassManager.h>
#include <mlir/Pass/PassRegistry.h>
#include <mlir/Target/LLVMIR/Dialect/All.h>
#include <mlir/Target/LLVMIR/Export.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>

namespace lowertrace::mlir {

namespace {

std::string print(::mlir::Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  os << "\n";
  return s;
}

std::string module_name(::mlir::Operation *op) {
  if (auto m = llvm::dyn_cast<::mlir::ModuleOp>(op))
    if (auto n = m.getSymName()) return n->str();
  return "module";
}

bool to_llvm_ir(::mlir::Operation *module, llvm::LLVMContext &ctx,
                std::unique_ptr<llvm::Module> &out, std::string *error) {
  out = ::mlir::translateModuleToLLVMIR(module, ctx, module_name(module));
  if (!out) {
    *error = "cannot translate to LLVM IR (is the module fully in the LLVM dialect?)";
    return false;
  }
  return true;
}

bool gen_llvm_ir(::mlir::Operation *module, std::vector<GeneratedCode> &out, std::string *error) {
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m;
  if (!to_llvm_ir(module, ctx, m, error)) return false;
  std::string text;
  llvm::raw_string_ostream os(text);
  m->print(os, nullptr);
  out.push_back({module_name(module), print(module), text, "llvm-ir"});
  return true;
}

bool gen_asm(::mlir::Operation *module, std::vector<GeneratedCode> &out, std::string *error, Session *trace) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::LLVMContext ctx;
  std::unique_ptr<llvm::Module> m;
  if (!to_llvm_ir(module, ctx, m, error)) return false;
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string err;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target) {
    *error = "no host target: " + err;
    return false;
  }
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, "generic", "", llvm::TargetOptions(), std::nullopt));
  m->setTargetTriple(triple);
  m->setDataLayout(tm->createDataLayout());
  if (trace) {
    TracedCode code;
    if (!traced_asm(*m, *tm, *trace, code, error)) return false;
    GeneratedCode g{module_name(module), code.mir, code.code, "asm"};
    g.lowered_lang = "mir";
    out.push_back(std::move(g));
    return true;
  }
  llvm::SmallString<0> buf;
  llvm::raw_svector_ostream os(buf);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile)) {
    *error = "the host target cannot emit assembly";
    return false;
  }
  pm.run(*m);
  out.push_back({module_name(module), print(module), std::string(buf.str()), "asm"});
  return true;
}

// Traced PTX: each gpu.module serialised in process with its LLVM passes
// recorded (traced_backend.h), the PTX already in gpu.binary ops as is, in
// module order as gpu-module-to-binary would leave them. Returns false, with
// nothing done, when a gpu.module has a target that is not NVVM (or none):
// then the untraced path below decides.
bool gen_ptx_traced(::mlir::Operation *module, Session &trace, std::vector<GeneratedCode> &out,
                    std::string *error, bool *handled) {
  *handled = false;
  bool nvvm_only = true;
  module->walk([&](::mlir::gpu::GPUModuleOp g) {
    auto targets = g.getTargetsAttr();
    if (!targets || targets.empty()) nvvm_only = false;
    else
      for (::mlir::Attribute t : targets)
        if (!llvm::isa<::mlir::NVVM::NVVMTargetAttr>(t)) nvvm_only = false;
  });
  if (!nvvm_only) return true;
  *handled = true;
  bool ok = true;
  module->walk([&](::mlir::Operation *op) {
    if (!ok) return;
    if (auto g = llvm::dyn_cast<::mlir::gpu::GPUModuleOp>(op)) {
      for (::mlir::Attribute t : g.getTargetsAttr()) {
        TracedCode code;
        if (!traced_ptx(*g, llvm::cast<::mlir::NVVM::NVVMTargetAttr>(t), trace, code, error)) {
          ok = false;
          return;
        }
        GeneratedCode gc{g.getName().str(), code.mir, code.code, "ptx"};
        gc.lowered_lang = "mir";
        out.push_back(std::move(gc));
      }
    } else if (auto bin = llvm::dyn_cast<::mlir::gpu::BinaryOp>(op)) {
      for (::mlir::Attribute a : bin.getObjects()) {
        auto obj = llvm::dyn_cast<::mlir::gpu::ObjectAttr>(a);
        if (!obj || obj.getFormat() != ::mlir::gpu::CompilationTarget::Assembly) continue;
        out.push_back({bin.getName().str(), print(bin), obj.getObject().getValue().str(), "ptx"});
      }
    }
  });
  if (ok && out.empty()) {
    *error = "no gpu.module or gpu.binary with PTX assembly in the module";
    return false;
  }
  return ok;
}

// PTX: serialise each gpu.module with the NVPTX back end (gpu-module-to-binary
// in "isa" format) on a clone, so the traced module itself is not changed.
bool gen_ptx(::mlir::Operation *module, std::vector<GeneratedCode> &out, std::string *error, Session *trace) {
  if (trace) {
    bool handled = false;
    bool ok = gen_ptx_traced(module, *trace, out, error, &handled);
    if (handled) return ok;
  }
  std::map<std::string, std::string> lowered;
  module->walk([&](::mlir::gpu::GPUModuleOp g) { lowered[g.getName().str()] = print(g); });
  ::mlir::OwningOpRef<::mlir::Operation *> clone(module->clone());
  if (!lowered.empty()) {
    ::mlir::PassManager pm(module->getContext(), module->getName().getStringRef());
    std::string perr;
    llvm::raw_string_ostream es(perr);
    if (::mlir::failed(::mlir::parsePassPipeline("gpu-module-to-binary{format=isa}", pm, es))) {
      *error = perr;
      return false;
    }
    if (::mlir::failed(pm.run(clone.get()))) {
      *error = "gpu-module-to-binary failed (does each gpu.module have an NVVM target? "
               "add nvvm-attach-target to the pipeline)";
      return false;
    }
  }
  clone.get()->walk([&](::mlir::gpu::BinaryOp bin) {
    for (::mlir::Attribute a : bin.getObjects()) {
      auto obj = llvm::dyn_cast<::mlir::gpu::ObjectAttr>(a);
      if (!obj || obj.getFormat() != ::mlir::gpu::CompilationTarget::Assembly) continue;
      std::string name = bin.getName().str();
      auto it = lowered.find(name);
      out.push_back({name, it != lowered.end() ? it->second : print(bin),
                     obj.getObject().getValue().str(), "ptx"});
    }
  });
  if (out.empty()) {
    *error = "no gpu.module or gpu.binary with PTX assembly in the module";
    return false;
  }
  return true;
}

struct CodegenPass
    : public ::mlir::PassWrapper<CodegenPass, ::mlir::OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CodegenPass)
  explicit CodegenPass(std::shared_ptr<CodegenState> s) : state(std::move(s)) {}
  llvm::StringRef getArgument() const override { return kCodegenPassArgument; }
  llvm::StringRef getDescription() const override { return "lowertrace codegen step"; }
  void runOnOperation() override {
    std::vector<GeneratedCode> code;
    std::string error;
    if (!generate_code(getOperation(), state->target, code, &error,
                       state->session && state->session->enabled() ? state->session.get() : nullptr)) {
      state->error = error;
      getOperation()->emitError() << "lowertrace codegen (" << state->target << "): " << error;
      return signalPassFailure();
    }
    for (auto &g : code) {
      std::string source = g.source;
      if (state->session) {
        auto r = state->session->codegen(g.lowered_ir, g.lowered_lang, g.source, g.language, g.kernel);
        source = std::move(r.source);
        state->tags.push_back(r.tag);
      }
      state->output += source;
    }
  }
  std::shared_ptr<CodegenState> state;
};

}  // namespace

bool is_codegen_target(std::string_view t) { return t == "llvm-ir" || t == "ptx" || t == "asm"; }

bool generate_code(::mlir::Operation *module, std::string_view target,
                   std::vector<GeneratedCode> &out, std::string *error, Session *trace) {
  if (target == "llvm-ir") return gen_llvm_ir(module, out, error);
  if (target == "asm") return gen_asm(module, out, error, trace);
  if (target == "ptx") return gen_ptx(module, out, error, trace);
  *error = "unknown codegen target '" + std::string(target) + "' (expected llvm-ir, ptx or asm)";
  return false;
}

void register_codegen_translations(::mlir::DialectRegistry &registry) {
  ::mlir::registerAllToLLVMIRTranslations(registry);
}

std::unique_ptr<::mlir::Pass> create_codegen_pass(std::shared_ptr<CodegenState> state) {
  return std::make_unique<CodegenPass>(std::move(state));
}

}  // namespace lowertrace::mlir
