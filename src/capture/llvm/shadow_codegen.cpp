#include "shadow_codegen.h"

#include "machine_tracer.h"
#include "util/log.h"

#include <llvm/ADT/Statistic.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DiagnosticHandler.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/OptBisect.h>
#include <llvm/IR/PrintPasses.h>
#include <llvm/Pass.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/PrettyStackTrace.h>
#include <llvm/Support/TimeProfiler.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

namespace lowertrace::llvm_capture {

namespace {

// Keeps the copy's diagnostics (back-end warnings, inline-asm errors) away
// from the user: clang's own run reports them. Remarks are not even built.
struct QuietDiagnostics : llvm::DiagnosticHandler {
  bool handleDiagnostics(const llvm::DiagnosticInfo &) override { return true; }
  bool isAnalysisRemarkEnabled(llvm::StringRef) const override { return false; }
  bool isMissedOptRemarkEnabled(llvm::StringRef) const override { return false; }
  bool isPassedOptRemarkEnabled(llvm::StringRef) const override { return false; }
  bool isAnyRemarkEnabled() const override { return false; }
};

bool option_given(llvm::StringRef name) {
  auto &opts = llvm::cl::getRegisteredOptions();
  auto it = opts.find(name);
  return it != opts.end() && it->second->getNumOccurrences() > 0;
}

}  // namespace

std::string shadow_codegen_blocker(const llvm::TargetMachine &tm) {
  if (llvm::AreStatisticsEnabled()) return "statistics (-stats) are on, and a second back-end run would count twice";
  if (llvm::TimePassesIsEnabled) return "pass timing (-ftime-report, -time-passes) is on, and a second back-end run would be timed too";
  if (llvm::timeTraceProfilerEnabled()) return "-ftime-trace is on, and a second back-end run would show in the time trace";
  if (llvm::shouldPrintBeforeSomePass() || llvm::shouldPrintAfterSomePass())
    return "-print-before/-print-after is on, and a second back-end run would print twice";
  if (llvm::getGlobalPassGate().isEnabled())
    return "opt-bisect is on, and a second back-end run would take its own pass numbers";
  if (!tm.Options.StackUsageOutput.empty()) return "-fstack-usage is on, and a second back-end run would write its file";
  if (option_given("debug-pass")) return "-debug-pass is on, and a second back-end run would be listed too";
  return {};
}

bool shadow_codegen(Session &session, const llvm::Module &m, llvm::TargetMachine &tm, std::string_view kernel) {
  // The copy: bitcode keeps names, metadata and (asked to) use-list order,
  // which instruction selection and scheduling can depend on.
  llvm::SmallVector<char, 0> bitcode;
  {
    llvm::raw_svector_ostream os(bitcode);
    llvm::WriteBitcodeToFile(m, os, /*ShouldPreserveUseListOrder=*/true);
  }
  llvm::LLVMContext ctx;
  ctx.setDiagnosticHandler(std::make_unique<QuietDiagnostics>());
  ctx.setDiscardValueNames(m.getContext().shouldDiscardValueNames());
  llvm::Expected<std::unique_ptr<llvm::Module>> copy =
      llvm::parseBitcodeFile(llvm::MemoryBufferRef({bitcode.data(), bitcode.size()}, m.getModuleIdentifier()), ctx);
  if (!copy) {
    util::warn("LLVM plugin: machine passes not traced: the module's copy did not load: " +
               llvm::toString(copy.takeError()));
    return false;
  }
  bitcode = {};

  llvm::SmallString<0> assembly;
  std::string machine_code;
  {
    llvm::raw_svector_ostream os(assembly);
    // As clang's RunCodegenPipeline/AddEmitPasses build it. The verifier is
    // left out as a release clang leaves it out (-disable-llvm-verifier).
    llvm::TargetLibraryInfoImpl tlii(tm.getTargetTriple());
    TracingPassManager pm(session);
    pm.add(llvm::createTargetTransformInfoWrapperPass(tm.getTargetIRAnalysis()));
    pm.add(new llvm::TargetLibraryInfoWrapperPass(tlii));
    if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile, /*DisableVerify=*/true)) {
      util::warn("LLVM plugin: machine passes not traced: the target cannot emit assembly");
      return false;
    }
    auto phase = session.phase("mir");
    // A back end that crashes here would crash in clang's run a moment later;
    // the crash report reads as clang's own would.
    llvm::PrettyStackTraceString crash_info("Code generation");
    pm.run(**copy);
    machine_code = pm.final_machine_code();
  }
  session.codegen(machine_code, "mir", assembly.str(), "asm", kernel);
  return true;
}

}  // namespace lowertrace::llvm_capture
