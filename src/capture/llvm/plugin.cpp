// capture/llvm/plugin.cpp - the entry point opt and clang look up in liblowertrace-llvm.so.
//
//   opt-22 -load-pass-plugin=liblowertrace-llvm.so -passes='default<O2>' x.ll
//   clang-22 -O2 -fpass-plugin=liblowertrace-llvm.so -c x.c
// Configuration comes from the environment (TL_LOWER_TRACE, TL_LOWER_TRACE_DIR,
// TL_LOWER_TRACE_MIR); with tracing off the plugin registers nothing and costs nothing.
#include "shadow_codegen.h"
#include "tracer.h"

#include "util/log.h"

#include <llvm/Passes/PassBuilder.h>
#include <llvm/Plugins/PassPlugin.h>
#include <llvm/Target/TargetMachine.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <link.h>
#include <memory>
#include <string>

namespace {

// The TargetMachine clang builds its PassBuilder with, which the PassBuilder
// keeps private and the plugin API does not hand out. Access checking does
// not apply to the names in an explicit instantiation ([temp.spec.general]),
// so this reads the member through a pointer-to-member, with no assumption
// on the class's layout.
llvm::TargetMachine *target_machine_of(llvm::PassBuilder &pb);
template <llvm::TargetMachine *llvm::PassBuilder::*Member> struct TargetMachineOf {
  friend llvm::TargetMachine *target_machine_of(llvm::PassBuilder &pb) { return pb.*Member; }
};
template struct TargetMachineOf<&llvm::PassBuilder::TM>;

// clang runs its back end in this process after the optimiser; opt does not.
// libclang-cpp is what holds clang's BackendUtil.
bool host_is_clang() {
  static const bool clang = [] {
    bool found = false;
    dl_iterate_phdr(
        [](dl_phdr_info *info, size_t, void *data) {
          if (info->dlpi_name && std::strstr(info->dlpi_name, "libclang-cpp.so")) *static_cast<bool *>(data) = true;
          return 0;
        },
        &found);
    return found;
  }();
  return clang;
}

bool mir_wanted() {
  const char *v = std::getenv("TL_LOWER_TRACE_MIR");
  return !v || std::string(v) != "0";
}

// Destroyed with the PassBuilder that holds it (in a callback's capture).
// clang destroys its PassBuilder when RunOptimizationPipeline returns: the
// optimiser has run every pass, and clang's own back end runs next.
struct AfterOptimizer {
  llvm::TargetMachine *tm;
  ~AfterOptimizer() {
    auto &tracer = lowertrace::llvm_capture::Tracer::instance();
    lowertrace::llvm_capture::Tracer::Optimized o = tracer.take_optimized();
    if (!o.session || !o.module) return;
    try {
      if (std::string why = lowertrace::llvm_capture::shadow_codegen_blocker(*tm); !why.empty()) {
        auto phase = o.session->phase("mir");
        o.session->skipped_pass("machine passes", o.session->intern(std::string_view{}), "not traced: " + why);
        return;
      }
      auto start = std::chrono::steady_clock::now();
      bool traced = lowertrace::llvm_capture::shadow_codegen(*o.session, *o.module, *tm, o.session->run().script);
      if (const char *v = std::getenv("LT_REPORT_STATS"); v && *v && std::string(v) != "0")
        lowertrace::util::info("llvm plugin: back end traced in " +
                               std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                  std::chrono::steady_clock::now() - start)
                                                  .count()) +
                               " ms");
      // The trace is complete: clang's own back end, next, does what the
      // shadow run just did (a crash there would have happened in the shadow
      // run first, and been recorded). Without the shadow run the trace
      // stays open to the end, so that a back-end crash still ends it.
      if (traced) tracer.finish_beside_host();
    } catch (const std::exception &e) {  // nothing may unwind into LLVM
      lowertrace::util::warn(std::string("LLVM plugin: machine passes not traced: ") + e.what());
    } catch (...) {
      lowertrace::util::warn("LLVM plugin: machine passes not traced");
    }
  }
};

void register_callbacks(llvm::PassBuilder &pb) {
  auto &tracer = lowertrace::llvm_capture::Tracer::instance();
  if (!tracer.enabled()) return;
  // Null when the host built its PassBuilder without instrumentation callbacks.
  if (llvm::PassInstrumentationCallbacks *pic = pb.getPassInstrumentationCallbacks()) tracer.attach(*pic);
  llvm::TargetMachine *tm = target_machine_of(pb);
  if (tm && host_is_clang() && mir_wanted()) {
    auto after = std::make_shared<AfterOptimizer>(AfterOptimizer{tm});
    pb.registerPipelineStartEPCallback([after](llvm::ModulePassManager &, llvm::OptimizationLevel) {});
  }
}

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default"))) ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "lowertrace", "0.1", register_callbacks, nullptr};
}
