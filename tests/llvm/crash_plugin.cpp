// A test-only pass plugin whose pass crashes, for hosts that have no such
// pass of their own (clang) and for signals LLVM's own debug passes do not
// raise (SIGSEGV). Not installed.
//
//   opt-22 -load-pass-plugin=liblt-test-crash.so -passes='lt-test-crash' x.ll
//   clang-22 -fpass-plugin=liblt-test-crash.so ...   (LT_TEST_CRASH_AT_START=1:
//                                                     runs at the pipeline start)
// LT_TEST_CRASH=segv makes it a null write; otherwise it calls abort().
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Plugins/PassPlugin.h>

#include <cstdlib>
#include <cstring>

namespace {
struct LtTestCrashPass : llvm::PassInfoMixin<LtTestCrashPass> {
  llvm::PreservedAnalyses run(llvm::Module &, llvm::ModuleAnalysisManager &) {
    const char *how = std::getenv("LT_TEST_CRASH");
    if (how && !std::strcmp(how, "segv")) {
      volatile int *p = nullptr;
      *p = 1;
    }
    std::abort();
  }
  static bool isRequired() { return true; }
};

void register_pass(llvm::PassBuilder &pb) {
  pb.registerPipelineParsingCallback(
      [](llvm::StringRef name, llvm::ModulePassManager &mpm,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (name != "lt-test-crash") return false;
        mpm.addPass(LtTestCrashPass());
        return true;
      });
  if (std::getenv("LT_TEST_CRASH_AT_START"))
    pb.registerPipelineStartEPCallback(
        [](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) { mpm.addPass(LtTestCrashPass()); });
}
}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default"))) ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "lt-test-crash", "0.1", register_pass, nullptr};
}
