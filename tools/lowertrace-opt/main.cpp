// lowertrace-opt: mlir-opt with every upstream dialect and pass, traced.
//
// It is mlir-opt's own driver (MlirOptMain) with one change: the pass-pipeline
// setup callback also attaches the lowertrace instrumentation. Output, exit
// status and diagnostics are therefore mlir-opt's; lowertrace adds only its
// "[lower_trace]" lines on stderr and the files under the trace directory.
#include "lowertrace/mlir.h"
#include "lowertrace/version.h"
#include "lowertrace_opt_extras.h"

#include <mlir/IR/Dialect.h>
#include <mlir/InitAllDialects.h>
#include <mlir/InitAllExtensions.h>
#include <mlir/InitAllPasses.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassManager.h>
#include <mlir/Support/FileUtilities.h>
#include <mlir/Target/LLVMIR/Dialect/All.h>
#include <mlir/Tools/mlir-opt/MlirOptMain.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/InitLLVM.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Process.h>
#include <llvm/Support/ToolOutputFile.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <filesystem>

namespace cl = llvm::cl;

static cl::OptionCategory traceCategory("lowertrace options");
static cl::opt<std::string> traceMode(
    "lower-trace", cl::desc("Trace mode: 0|1|terminal|html|both (default: $TL_LOWER_TRACE)"),
    cl::value_desc("mode"), cl::cat(traceCategory));
static cl::opt<std::string> traceDir(
    "lower-trace-dir", cl::desc("Trace directory (default: $TL_LOWER_TRACE_DIR or ./tmp/lower_trace_dir)"),
    cl::value_desc("dir"), cl::cat(traceCategory));
static cl::opt<std::string> traceCodegen(
    "lower-trace-codegen",
    cl::desc("After the pipeline, generate code (llvm-ir|ptx|asm), record it as the codegen "
             "step and write it (after the edit-and-recompile workflow) instead of the MLIR"),
    cl::value_desc("target"), cl::cat(traceCategory));
static cl::opt<std::string> traceScript(
    "lower-trace-name", cl::desc("Name of the <script> folder (default: the input file's stem)"),
    cl::value_desc("name"), cl::cat(traceCategory));

// Appended to --help (after mlir-opt's options): the lowertrace options in
// the manual's form. Only --help changes; mlir-opt's outputs do not.
static cl::extrahelp traceManual(R"(
LOWERTRACE
  lowertrace-opt is mlir-opt-22 (same dialects, passes, output bytes and exit
  status) with the lowertrace instrumentation attached to its pass manager.
  It records the IR before and after every pass under the trace folder
  (<dir>/<script>/: raw files, trace.json, report.html); tracing never
  changes the output, and a trace I/O failure is only a warning.

LOWERTRACE OPTIONS
  --lower-trace=<mode>        0|1|terminal|html|both; overrides TL_LOWER_TRACE.
                              terminal: one line per pass on stderr,
                              html: the report, both: the two.
  --lower-trace-dir=<dir>     Trace folder; overrides TL_LOWER_TRACE_DIR
                              (default ./tmp/lower_trace_dir).
  --lower-trace-name=<name>   <script> folder name (default: the input's stem,
                              "stdin" for stdin).
  --lower-trace-codegen=<t>   After the pipeline, generate code: llvm-ir, ptx
                              or asm; record it as the codegen step, run the
                              edit-and-recompile workflow and write the code
                              (not the MLIR) to the output.

ENVIRONMENT
  TL_LOWER_TRACE, TL_LOWER_TRACE_DIR (or LOWER_TRACE, LOWER_TRACE_DIR)
                              As the options above, when they are not given.

EXIT STATUS
  mlir-opt's: 0 on success, 1 on a parse, pass or verifier failure.

EXAMPLES
  lowertrace-opt in.mlir --canonicalize --cse --lower-trace=terminal
  lowertrace-opt gpu.mlir --pass-pipeline='...' --lower-trace-codegen=ptx -o k.ptx
)");

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "lowertrace-opt (lowertrace " << LOWERTRACE_VERSION_STRING << ")\n";
  });
  mlir::registerAllPasses();
  lowertrace_opt::registerExtraPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllGPUToLLVMIRTranslations(registry);
  lowertrace_opt::registerExtraDialects(registry);
  // Only with the codegen step: keep the registry exactly mlir-opt's otherwise.
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).starts_with("--lower-trace-codegen") ||
        llvm::StringRef(argv[i]).starts_with("-lower-trace-codegen"))
      lowertrace::mlir::register_codegen_translations(registry);

  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "MLIR modular optimizer driver\n", registry);
  mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();

  // Flags override the environment, like enable() does.
  if (traceMode.getNumOccurrences() || traceDir.getNumOccurrences()) {
    lowertrace::EnableOptions opts;
    if (traceMode.getNumOccurrences()) {
      bool unknown = false;
      lowertrace::Mode m = lowertrace::parse_mode(traceMode, &unknown);
      if (unknown)
        llvm::errs() << "  [lower_trace] WARNING: unknown --lower-trace value '" << traceMode
                     << "' (expected 0|1|terminal|html|both); using html\n";
      opts.mode = m;
    }
    if (traceDir.getNumOccurrences()) opts.trace_dir = std::string(traceDir);
    lowertrace::enable(opts);
  }

  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  if (inputFilename == "-" && llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to interrupt)\n";

  std::string errorMessage;
  auto file = mlir::openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  auto output = mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }

  std::string script = traceScript.getNumOccurrences() ? std::string(traceScript)
                       : inputFilename == "-" ? std::string("stdin")
                       : std::filesystem::path(inputFilename).stem().string();
  std::shared_ptr<lowertrace::mlir::CodegenState> codegen;
  if (traceCodegen.getNumOccurrences()) {
    if (!lowertrace::mlir::is_codegen_target(traceCodegen)) {
      llvm::errs() << "lowertrace-opt: unknown --lower-trace-codegen value '" << traceCodegen
                   << "' (expected llvm-ir, ptx or asm)\n";
      return 1;
    }
    codegen = std::make_shared<lowertrace::mlir::CodegenState>();
    codegen->target = traceCodegen;
  }

  mlir::MlirOptMainConfig base = config;
  config.setPassPipelineSetupFn([base, script, codegen,
                                 input = inputFilename](mlir::PassManager &pm) {
    if (mlir::failed(base.setupPassPipeline(pm))) return mlir::failure();
    lowertrace::mlir::AttachOptions opts;
    opts.script = script;
    opts.input = input;
    opts.tool = "lowertrace-opt";
    opts.ir_verified = base.shouldVerifyPasses();
    auto session = lowertrace::mlir::attach(pm, opts);
    if (codegen) {
      codegen->session = session;
      pm.addPass(lowertrace::mlir::create_codegen_pass(codegen));
    }
    return mlir::success();
  });

  if (!codegen) {
    if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
      return 1;
    output->keep();
    return 0;
  }
  // With a codegen step the output is the generated source, not the MLIR.
  std::string mlirText;
  llvm::raw_string_ostream mlirOut(mlirText);
  if (mlir::failed(mlir::MlirOptMain(mlirOut, std::move(file), registry, config))) return 1;
  output->os() << codegen->output;
  output->keep();
  return 0;
}
