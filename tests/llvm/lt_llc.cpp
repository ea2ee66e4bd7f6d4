// lt-llc: a small llc for tests - reads LLVM IR, runs the target's codegen
// pipeline as llc-22 does (same codegen flags, so -O, -mtriple, -opt-bisect-limit
// and -print-after-all work) and writes the assembly. With TL_LOWER_TRACE set,
// the pipeline runs in a TracingPassManager: each codegen pass becomes a
// record of phase "mir", and the assembly a codegen record.
#include "capture/llvm/machine_tracer.h"
#include "lowertrace/session.h"

#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/CodeGen/CommandFlags.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/ToolOutputFile.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <memory>
#include <optional>

using namespace llvm;

static codegen::RegisterCodeGenFlags cg_flags;
static cl::opt<std::string> input(cl::Positional, cl::desc("<input .ll>"), cl::init("-"));
static cl::opt<std::string> output("o", cl::desc("output file"), cl::init("-"));
static cl::opt<char> opt_level("O", cl::desc("optimization level"), cl::Prefix, cl::init('2'));
static cl::opt<std::string> triple_opt("mtriple", cl::desc("target triple"));

int main(int argc, char **argv) {
  InitLLVM x(argc, argv);
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  cl::ParseCommandLineOptions(argc, argv, "lowertrace test llc\n");

  LLVMContext ctx;
  SMDiagnostic err;
  std::unique_ptr<Module> m = parseIRFile(input, err, ctx);
  if (!m) {
    err.print(argv[0], errs());
    return 1;
  }
  Triple triple(triple_opt.empty() ? m->getTargetTriple() : Triple(Triple::normalize(triple_opt)));
  if (triple.getTriple().empty()) triple = Triple(sys::getDefaultTargetTriple());
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(codegen::getMArch(), triple, error);
  if (!target) {
    errs() << argv[0] << ": " << error << "\n";
    return 1;
  }
  std::optional<CodeGenOptLevel> level = CodeGenOpt::parseLevel(opt_level);
  if (!level) {
    errs() << argv[0] << ": invalid optimization level\n";
    return 1;
  }
  TargetOptions options = codegen::InitTargetOptionsFromCodeGenFlags(triple);
  options.MCOptions.AsmVerbose = true;  // llc's -asm-verbose default
  std::unique_ptr<TargetMachine> tm(target->createTargetMachine(
      triple, codegen::getCPUStr(), codegen::getFeaturesStr(), options, codegen::getExplicitRelocModel(),
      codegen::getExplicitCodeModel(), *level));
  if (!tm) {
    errs() << argv[0] << ": cannot create the target machine\n";
    return 1;
  }
  m->setTargetTriple(triple);
  m->setDataLayout(tm->createDataLayout());
  codegen::setFunctionAttributes(codegen::getCPUStr(), codegen::getFeaturesStr(), *m);

  std::error_code ec;
  auto out = std::make_unique<ToolOutputFile>(output, ec, sys::fs::OF_Text);
  if (ec) {
    errs() << argv[0] << ": " << ec.message() << "\n";
    return 1;
  }
  SmallString<0> text;
  raw_svector_ostream os(text);

  lowertrace::SessionOptions so;
  so.tool = "lt-llc";
  so.script = sys::path::stem(input).str();
  so.input = input;
  lowertrace::Session session(so);
  TargetLibraryInfoImpl tlii(triple);
  if (session.enabled()) {
    lowertrace::llvm_capture::TracingPassManager pm(session);
    pm.add(new TargetLibraryInfoWrapperPass(tlii));
    if (tm->addPassesToEmitFile(pm, os, nullptr, codegen::getFileType(), /*DisableVerify=*/false)) return 1;
    {
      auto phase = session.phase("mir");
      pm.run(*m);
    }
    session.codegen(pm.final_machine_code(), "mir", text.str(), "asm", so.script);
  } else {
    legacy::PassManager pm;
    pm.add(new TargetLibraryInfoWrapperPass(tlii));
    if (tm->addPassesToEmitFile(pm, os, nullptr, codegen::getFileType(), /*DisableVerify=*/false)) return 1;
    pm.run(*m);
  }
  out->os() << text;
  out->keep();
  return 0;
}
