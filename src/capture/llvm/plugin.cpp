// capture/llvm/plugin.cpp - the entry point opt and clang look up in liblowertrace-llvm.so.
//
//   opt-22 -load-pass-plugin=liblowertrace-llvm.so -passes='default<O2>' x.ll
//   clang-22 -O2 -fpass-plugin=liblowertrace-llvm.so -c x.c
// Configuration comes from the environment (TL_LOWER_TRACE, TL_LOWER_TRACE_DIR);
// with tracing off the plugin registers nothing and costs nothing.
#include "tracer.h"

#include <llvm/Passes/PassBuilder.h>
#include <llvm/Plugins/PassPlugin.h>

namespace {
void register_callbacks(llvm::PassBuilder &pb) {
  auto &tracer = lowertrace::llvm_capture::Tracer::instance();
  if (!tracer.enabled()) return;
  // Null when the host built its PassBuilder without instrumentation callbacks.
  if (llvm::PassInstrumentationCallbacks *pic = pb.getPassInstrumentationCallbacks()) tracer.attach(*pic);
}
}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default"))) ::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "lowertrace", "0.1", register_callbacks, nullptr};
}
