// capture/llvm/shadow_codegen.h - the machine passes of a compiler whose codegen pass manager we do not own.
//
// clang runs its back end on a legacy::PassManager it builds after the new-PM
// optimiser (clang's BackendUtil: RunOptimizationPipeline, then
// RunCodegenPipeline). That pass manager has no instrumentation callbacks and a
// plugin has no handle on it, so the plugin does not hook it. Instead, once the
// optimiser is done, it runs the same back end itself -- clang's own
// TargetMachine, the pipeline TargetMachine::addPassesToEmitFile builds, as
// clang builds it -- on a copy of the module, in a TracingPassManager
// (machine_tracer.h): the machine passes become records of phase "mir" and the
// assembly the codegen record. clang then compiles its module as always.
//
// The copy lives in an LLVMContext of its own (a bitcode round trip that keeps
// use-list order, so the copy codegens exactly like the original), with a
// diagnostic handler that keeps everything to itself: a back-end warning or
// error is printed once, by clang's own run. What a second run would change for
// the user is global state: statistics, pass timers, time traces, pass
// printers, opt-bisect's counter, -fstack-usage's file. When any of those is on,
// nothing runs and the trace says why (shadow_codegen_blocker).
//
// The cost is one more back-end run over the module (plus the copy), and the
// machine passes' prints; TL_LOWER_TRACE_MIR=0 turns it off.
#pragma once

#include "lowertrace/session.h"

#include <string>
#include <string_view>

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace lowertrace::llvm_capture {

// Empty when a second back-end run in this process goes unnoticed by the
// user; otherwise why it would not (one line, for the trace).
std::string shadow_codegen_blocker(const llvm::TargetMachine &tm);

// Runs tm's back end on a copy of `m`, recording its passes into `session`
// (phase "mir") and the assembly as the codegen record of `kernel`.
// Returns false (with a warning) when the back end could not be set up.
bool shadow_codegen(Session &session, const llvm::Module &m, llvm::TargetMachine &tm, std::string_view kernel);

}  // namespace lowertrace::llvm_capture
