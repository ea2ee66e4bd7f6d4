// consumer <input.mlir> <pipeline>: parses the module, runs the pipeline with
// lowertrace attached (a no-op unless TL_LOWER_TRACE is set) and prints the
// result. The same bytes traced or not is what the test checks.
#include <lowertrace/mlir.h>
#include <lowertrace/version.h>

#include <mlir/Dialect/Arith/IR/Arith.h>
#include <mlir/Dialect/Func/IR/FuncOps.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/Parser/Parser.h>
#include <mlir/Pass/PassManager.h>
#include <mlir/Pass/PassRegistry.h>
#include <mlir/Transforms/Passes.h>
#include <llvm/Support/raw_ostream.h>

#include <cstdio>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: consumer <input.mlir> <pipeline>  (lowertrace %s)\n",
                 LOWERTRACE_VERSION_STRING);
    return 2;
  }
  mlir::registerTransformsPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::arith::ArithDialect>();
  mlir::MLIRContext ctx(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &ctx);
  if (!module) return 1;
  // A full textual pipeline, "builtin.module(...)", as mlir-opt's --pass-pipeline.
  mlir::FailureOr<mlir::OpPassManager> parsed = mlir::parsePassPipeline(argv[2], llvm::errs());
  if (mlir::failed(parsed)) return 1;
  mlir::PassManager pm(&ctx, parsed->getOpAnchorName());
  static_cast<mlir::OpPassManager &>(pm) = *parsed;
  lowertrace::mlir::AttachOptions opts;
  opts.script = "consumer";
  opts.tool = "consumer";
  lowertrace::mlir::attach(pm, opts);
  if (mlir::failed(pm.run(*module))) return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
