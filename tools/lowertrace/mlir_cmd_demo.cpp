// `lowertrace demo`: the main job. Lowers a tiled linalg.matmul to a GPU
// kernel pass by pass, down to PTX (or, with --cpu, to host assembly), and
// writes the trace and report. No arguments needed: the input is embedded.
#include "command.h"
#include "manual.h"

#include "lowertrace/mlir.h"

#include <CLI/CLI.hpp>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/InitAllDialects.h>
#include <mlir/InitAllExtensions.h>
#include <mlir/InitAllPasses.h>
#include <mlir/Parser/Parser.h>
#include <mlir/Pass/Pass.h>
#include <mlir/Pass/PassManager.h>
#include <mlir/Pass/PassRegistry.h>
#include <mlir/Target/LLVMIR/Dialect/All.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>
#include <cstring>
#include <fstream>

namespace lowertrace::examples {
extern const std::string_view matmul_mlir;
extern const std::string_view pipeline_gpu_txt;
extern const std::string_view pipeline_cpu_txt;
}  // namespace lowertrace::examples

namespace {

std::string trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  return std::string(s);
}

int run_demo(int argc, char **argv) {
  CLI::App app{"Trace a GPU matmul kernel from linalg on tensors down to PTX (or host assembly)",
               "lowertrace demo"};
  bool cpu = false, print_pipeline = false;
  std::string mode, dir, codegen_output, input_file, output;
  app.add_flag("--cpu", cpu, "lower for the CPU, down to host assembly");
  app.add_option("--mode", mode, "trace mode: terminal|html|both (default: $TL_LOWER_TRACE, else html)");
  app.add_option("--dir", dir, "trace directory (default: $TL_LOWER_TRACE_DIR or ./tmp/lower_trace_dir)");
  app.add_option("--codegen-output", codegen_output, "working copy of the generated code");
  app.add_option("--input", input_file, "use this MLIR file instead of the embedded matmul");
  app.add_option("-o,--output", output, "also write the generated code here");
  app.add_flag("--print-pipeline", print_pipeline, "print the pass pipeline and exit");
  for (int k = 1; k < argc; ++k)  // the manual page rather than CLI11's generated help
    if (!std::strcmp(argv[k], "-h") || !std::strcmp(argv[k], "--help"))
      return lowertrace::cli::print_command_manual("demo");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  std::string pipeline = trimmed(cpu ? lowertrace::examples::pipeline_cpu_txt
                                     : lowertrace::examples::pipeline_gpu_txt);
  if (print_pipeline) {
    std::printf("%s\n", pipeline.c_str());
    return 0;
  }

  // The demo always traces: flags, then the environment, then html.
  lowertrace::EnableOptions eo;
  if (!mode.empty()) {
    bool unknown = false;
    eo.mode = lowertrace::parse_mode(mode, &unknown);
    if (unknown) std::fprintf(stderr, "  [lower_trace] WARNING: unknown --mode '%s'; using html\n", mode.c_str());
  }
  if (!dir.empty()) eo.trace_dir = dir;
  if (!codegen_output.empty()) eo.codegen_output = codegen_output;
  lowertrace::enable(eo);
  if (!lowertrace::current_config().enabled()) {
    eo.mode = lowertrace::Mode::Html;
    lowertrace::enable(eo);
  }

  mlir::registerAllPasses();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  lowertrace::mlir::register_codegen_translations(registry);
  mlir::MLIRContext ctx(registry);

  std::string source;
  std::string input_name = "matmul.mlir (embedded)";
  if (!input_file.empty()) {
    std::ifstream in(input_file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "lowertrace demo: cannot read %s\n", input_file.c_str());
      return 1;
    }
    source.assign(std::istreambuf_iterator<char>(in), {});
    input_name = input_file;
  } else {
    source = std::string(lowertrace::examples::matmul_mlir);
  }
  llvm::SourceMgr smgr;
  smgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(source, input_name), llvm::SMLoc());
  mlir::SourceMgrDiagnosticHandler diag(smgr, &ctx);
  auto module = mlir::parseSourceFile<mlir::ModuleOp>(smgr, &ctx);
  if (!module) return 1;

  std::string err;
  llvm::raw_string_ostream es(err);
  auto parsed = mlir::parsePassPipeline(pipeline, es);
  if (mlir::failed(parsed)) {
    std::fprintf(stderr, "lowertrace demo: bad pipeline: %s\n", err.c_str());
    return 1;
  }
  mlir::PassManager pm(&ctx, parsed->getOpAnchorName());
  static_cast<mlir::OpPassManager &>(pm) = std::move(*parsed);

  auto codegen = std::make_shared<lowertrace::mlir::CodegenState>();
  codegen->target = cpu ? "asm" : "ptx";
  lowertrace::mlir::AttachOptions ao;
  ao.script = cpu ? "demo_cpu_matmul" : "demo_gpu_matmul";
  ao.input = input_name;
  ao.tool = "lowertrace demo";
  ao.phase = cpu ? "pipeline_cpu" : "pipeline_gpu";
  codegen->session = lowertrace::mlir::attach(pm, ao);
  pm.addPass(lowertrace::mlir::create_codegen_pass(codegen));
  bool ok = mlir::succeeded(pm.run(*module));
  if (!output.empty() && ok) {
    std::ofstream out(output, std::ios::binary);
    out << codegen->output;
  }
  codegen->session.reset();
  return ok ? 0 : 1;
}

}  // namespace

LOWERTRACE_COMMAND(demo, "demo",
                   "trace a GPU matmul from linalg to PTX (--cpu: to host assembly)", run_demo);
