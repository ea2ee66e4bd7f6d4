// The MLIR front end on real upstream passes, in process.
#include "lowertrace/mlir.h"
#include "../unit/test_util.h"

#include <gtest/gtest.h>
#include <mlir/IR/BuiltinOps.h>
#include <mlir/IR/MLIRContext.h>
#include <mlir/InitAllDialects.h>
#include <mlir/InitAllPasses.h>
#include <mlir/Parser/Parser.h>
#include <mlir/Pass/PassManager.h>
#include <mlir/Pass/PassRegistry.h>
#include <llvm/Support/raw_ostream.h>

#include <fcntl.h>
#include <unistd.h>

using namespace lowertrace;
using lt_test::TempDir;

namespace {

struct Registered {
  Registered() { ::mlir::registerAllPasses(); }
};

std::unique_ptr<::mlir::MLIRContext> make_context(bool threading) {
  static Registered once;
  ::mlir::DialectRegistry registry;
  ::mlir::registerAllDialects(registry);
  auto ctx = std::make_unique<::mlir::MLIRContext>(registry);
  ctx->enableMultithreading(threading);
  return ctx;
}

// n functions, each with foldable arithmetic and a common subexpression.
std::string many_functions(int n) {
  std::string s = "module {\n";
  for (int i = 0; i < n; ++i) {
    s += "  func.func @f" + std::to_string(i) + "(%a: i32) -> i32 {\n";
    s += "    %c0 = arith.constant 0 : i32\n";
    s += "    %x = arith.addi %a, %c0 : i32\n";
    s += "    %y = arith.muli %x, %a : i32\n";
    s += "    %z = arith.muli %x, %a : i32\n";
    s += "    %r = arith.addi %y, %z : i32\n";
    s += "    return %r : i32\n  }\n";
  }
  return s + "}\n";
}

struct TracedRun {
  bool ok = false;
  std::vector<LowerRecord> records;
  std::string output;
};

// Runs a textual pipeline on `ir` with a traced PassManager.
TracedRun run_traced(const std::string &ir, const std::string &pipeline, bool threading,
               const std::string &dir, Mode mode = Mode::Terminal) {
  auto ctx = make_context(threading);
  TracedRun out;
  auto module = ::mlir::parseSourceString<::mlir::ModuleOp>(ir, ctx.get());
  EXPECT_TRUE(module) << "input must parse";
  if (!module) return out;
  std::string err;
  llvm::raw_string_ostream es(err);
  auto parsed = ::mlir::parsePassPipeline(pipeline, es);
  EXPECT_TRUE(::mlir::succeeded(parsed)) << err;
  Config cfg;
  cfg.mode = mode;
  cfg.trace_dir = dir;
  auto session = std::make_shared<Session>(
      SessionOptions{.script = "test", .install_default_sinks = false}, cfg);
  {
    ::mlir::PassManager pm(ctx.get(), parsed->getOpAnchorName());
    static_cast<::mlir::OpPassManager &>(pm) = std::move(*parsed);
    lowertrace::mlir::AttachOptions ao;
    ao.session = session;
    EXPECT_NE(lowertrace::mlir::attach(pm, ao), nullptr);
    out.ok = ::mlir::succeeded(pm.run(*module));
  }
  session->finish();
  out.records = session->records();
  llvm::raw_string_ostream os(out.output);
  module->print(os);
  return out;
}

// A terminal-mode session with no sinks, writing under `dir`.
std::shared_ptr<Session> quiet_session(const std::string &dir) {
  Config cfg;
  cfg.mode = Mode::Terminal;
  cfg.trace_dir = dir;
  return std::make_shared<Session>(SessionOptions{.script = "t", .install_default_sinks = false},
                                   cfg);
}

// Runs an unanchored textual pipeline on `module` with `session` attached,
// then finishes the session. Returns whether the pipeline succeeded.
bool run_attached(::mlir::MLIRContext *ctx, ::mlir::ModuleOp module, const char *pipeline,
                  const std::shared_ptr<Session> &session) {
  bool ok;
  {
    ::mlir::PassManager pm(ctx);
    std::string err;
    llvm::raw_string_ostream es(err);
    bool parsed = ::mlir::succeeded(::mlir::parsePassPipeline(pipeline, pm, es));
    EXPECT_TRUE(parsed) << err;
    if (!parsed) return false;
    lowertrace::mlir::AttachOptions ao;
    ao.session = session;
    lowertrace::mlir::attach(pm, ao);
    ok = ::mlir::succeeded(pm.run(module));
  }
  session->finish();
  return ok;
}

std::string summary(const std::vector<LowerRecord> &recs) {
  std::string s;
  for (const auto &r : recs)
    s += std::to_string(r.index) + " " + r.name + " d" + std::to_string(r.depth) + " p" +
         std::to_string(r.parent_index) + " " + r.status + (r.changed ? " changed" : " noop") +
         " " + r.anchor + "\n";
  return s;
}

}  // namespace

TEST(MlirCapture, AttachIsANoOpWhenTracingIsOff) {
  disable();
  auto ctx = make_context(false);
  ::mlir::PassManager pm(ctx.get());
  EXPECT_EQ(lowertrace::mlir::attach(pm), nullptr);
}

TEST(MlirCapture, CanonicalizeAndCseAtModuleLevel) {
  TempDir dir;
  TracedRun r = run_traced(many_functions(2), "builtin.module(canonicalize,cse,symbol-dce)", false,
                     dir.path());
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(r.records.size(), 3u) << summary(r.records);
  EXPECT_EQ(r.records[0].name, "canonicalize");
  EXPECT_EQ(r.records[0].detail, "Canonicalizer");
  EXPECT_TRUE(r.records[0].changed);
  EXPECT_NE(r.records[0].before_text().find("arith.constant 0"), std::string::npos);
  EXPECT_EQ(r.records[0].after_text().find("arith.constant 0"), std::string::npos);
  EXPECT_EQ(r.records[1].name, "cse");
  EXPECT_TRUE(r.records[1].changed) << "the duplicated muli is eliminated";
  EXPECT_EQ(r.records[2].name, "symbol-dce");
  EXPECT_FALSE(r.records[2].changed) << "public functions are kept";
  // Consecutive snapshots are shared, and the last after-text is the output.
  EXPECT_EQ(r.records[0].after.get(), r.records[1].before.get());
  EXPECT_EQ(std::string(r.records[2].after_text()), r.output + "\n");
}

TEST(MlirCapture, NestedPipelineGivesDepthParentAndOneRecordPerPosition) {
  TempDir dir;
  TracedRun r = run_traced(many_functions(5),
                     "builtin.module(func.func(canonicalize,cse),symbol-dce)", false, dir.path());
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(r.records.size(), 4u) << summary(r.records);
  const auto &adaptor = r.records[0];
  EXPECT_EQ(adaptor.name, "func.func(canonicalize,cse)");
  EXPECT_EQ(adaptor.depth, 0);
  EXPECT_EQ(r.records[1].name, "canonicalize");
  EXPECT_EQ(r.records[1].depth, 1);
  EXPECT_EQ(r.records[1].parent_index, adaptor.index);
  EXPECT_EQ(r.records[1].anchor, "func.func x5 (5 changed)");
  EXPECT_EQ(r.records[2].name, "cse");
  EXPECT_EQ(r.records[2].parent_index, adaptor.index);
  EXPECT_EQ(r.records[3].name, "symbol-dce");
  EXPECT_EQ(r.records[3].depth, 0);
  // The nested record shows every function, in IR order.
  std::string_view t = r.records[1].before_text();
  size_t f0 = t.find("@f0("), f4 = t.find("@f4(");
  ASSERT_NE(f0, std::string::npos);
  ASSERT_NE(f4, std::string::npos);
  EXPECT_LT(f0, f4);
  EXPECT_EQ(r.records[1].after.get(), r.records[2].before.get());
}

TEST(MlirCapture, RecordsAreTheSameWithThreadingOnAndOff) {
  TempDir d1, d2;
  std::string ir = many_functions(64);
  std::string pipe = "builtin.module(func.func(canonicalize,cse),inline,func.func(cse))";
  TracedRun off = run_traced(ir, pipe, false, d1.path());
  TracedRun on = run_traced(ir, pipe, true, d2.path());
  ASSERT_TRUE(off.ok && on.ok);
  ASSERT_EQ(summary(off.records), summary(on.records));
  for (size_t i = 0; i < off.records.size(); ++i) {
    EXPECT_EQ(off.records[i].before_text(), on.records[i].before_text()) << i;
    EXPECT_EQ(off.records[i].after_text(), on.records[i].after_text()) << i;
    EXPECT_EQ(off.records[i].add_lines, on.records[i].add_lines) << i;
  }
}

TEST(MlirCapture, AFailingPassGivesAFailedRecordWithTheDiagnostic) {
  TempDir dir;
  const char *ir = R"(module attributes {gpu.container_module} {
  gpu.module @k { gpu.func @kern() kernel { gpu.return } }
})";
  auto ctx = make_context(false);
  // The failing pass's diagnostic must still reach the tool's own handler.
  std::string seen;
  ::mlir::ScopedDiagnosticHandler tool_handler(ctx.get(), [&](::mlir::Diagnostic &d) {
    seen += d.str();
    return ::mlir::success();
  });
  auto module = ::mlir::parseSourceString<::mlir::ModuleOp>(ir, ctx.get());
  ASSERT_TRUE(module);
  auto session = quiet_session(dir.path());
  bool ok = run_attached(ctx.get(), *module, "canonicalize,gpu-module-to-binary", session);
  EXPECT_FALSE(ok) << "tracing must not change the outcome";
  EXPECT_NE(seen.find("the module has no target attributes"), std::string::npos) << seen;
  auto recs = session->records();
  ASSERT_EQ(recs.size(), 2u) << summary(recs);
  EXPECT_EQ(recs[0].status, STATUS_COMPLETED);
  EXPECT_EQ(recs[1].name, "gpu-module-to-binary");
  EXPECT_EQ(recs[1].status, STATUS_FAILED);
  EXPECT_NE(recs[1].error_msg.find("the module has no target attributes"), std::string::npos)
      << recs[1].error_msg;
  EXPECT_NE(recs[1].before_text().find("gpu.module @k"), std::string::npos);
}

TEST(MlirCapture, NestedFailureFailsThePassAndItsAdaptor) {
  TempDir dir;
  // canonicalize with test-convergence fails on @bad (it needs a second
  // iteration) but converges on @ok: a real failure inside a nested pipeline.
  const char *ir = R"(module {
  func.func @ok(%a: i32) -> i32 { return %a : i32 }
  func.func @bad(%a: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %x = arith.addi %a, %c0 : i32
    %y = arith.addi %x, %c0 : i32
    return %y : i32
  }
})";
  for (bool threading : {false, true}) {
    auto ctx = make_context(threading);
    auto module = ::mlir::parseSourceString<::mlir::ModuleOp>(ir, ctx.get());
    ASSERT_TRUE(module);
    auto session = quiet_session(dir.path());
    bool ok = run_attached(
        ctx.get(), *module,
        "func.func(cse,canonicalize{max-iterations=1 test-convergence=true}),symbol-dce", session);
    ASSERT_FALSE(ok);
    auto recs = session->records();
    ASSERT_EQ(recs.size(), 3u) << summary(recs) << "symbol-dce never ran";
    EXPECT_EQ(recs[0].status, STATUS_FAILED) << "the adaptor fails with its child";
    EXPECT_EQ(recs[1].name, "cse");
    EXPECT_EQ(recs[1].status, STATUS_COMPLETED) << summary(recs);
    EXPECT_EQ(recs[2].name, "canonicalize");
    EXPECT_EQ(recs[2].status, STATUS_FAILED);
    EXPECT_EQ(recs[2].parent_index, 0);
    EXPECT_EQ(recs[2].anchor, "func.func x2 (0 changed, 1 failed)") << threading;
    EXPECT_FALSE(recs[2].error_msg.empty());
  }
}

TEST(MlirCapture, ManyFunctionsStayOneRecordPerPassAndSnapshotsAreShared) {
  TempDir dir;
  TracedRun r = run_traced(many_functions(2000), "builtin.module(func.func(canonicalize,cse,cse))",
                     true, dir.path());
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(r.records.size(), 4u) << summary(r.records);
  EXPECT_EQ(r.records[1].anchor, "func.func x2000 (2000 changed)");
  EXPECT_EQ(r.records[3].anchor, "func.func x2000 (0 changed)");
  EXPECT_FALSE(r.records[3].changed);
  EXPECT_EQ(r.records[3].before.get(), r.records[3].after.get());
}

TEST(MlirCapture, OneShotHelperTracesAPipelineString) {
  TempDir dir;
  auto ctx = make_context(false);
  auto module = ::mlir::parseSourceString<::mlir::ModuleOp>(many_functions(1), ctx.get());
  ASSERT_TRUE(module);
  auto res = lowertrace::mlir::trace_pipeline(module->getOperation(),
                                              "builtin.module(canonicalize,cse)", Mode::Terminal,
                                              dir.path());
  ASSERT_TRUE(res.ok) << res.error;
  ASSERT_EQ(res.records.size(), 2u);
  EXPECT_EQ(res.records[0].phase, "lower_trace");
  EXPECT_TRUE(res.records[0].changed);
  auto bad = lowertrace::mlir::trace_pipeline(module->getOperation(), "builtin.module(no-such-pass)",
                                              Mode::Terminal, dir.path());
  EXPECT_FALSE(bad.ok);
  EXPECT_NE(bad.error.find("no-such-pass"), std::string::npos) << bad.error;
  // An unregistered pass says how to fix it (the README's example failed so).
  EXPECT_NE(bad.error.find("registerTransformsPasses"), std::string::npos) << bad.error;
}
