// Every banner form, exactly as LLVM/MLIR 22 (and LLVM 23 main) print it.
#include "capture/dump/banner.h"

#include <gtest/gtest.h>

using namespace lowertrace::dump;

TEST(DumpBanner, Mlir22LocalScope) {
  auto b = parse_banner("// -----// IR Dump Before Canonicalizer (canonicalize) //----- //");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->family, Family::Mlir);
  EXPECT_EQ(b->kind, Kind::Before);
  EXPECT_EQ(b->pass, "Canonicalizer");
  EXPECT_EQ(b->arg, "canonicalize");
  EXPECT_FALSE(b->module_scope);
  EXPECT_EQ(b->display_name(), "canonicalize");
}

TEST(DumpBanner, Mlir22ModuleScopeWithAndWithoutSymbol) {
  auto b = parse_banner("// -----// IR Dump After CSE (cse) ('func.func' operation: @f) //----- //");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->kind, Kind::After);
  EXPECT_TRUE(b->module_scope);
  EXPECT_EQ(b->op, "func.func");
  EXPECT_EQ(b->sym, "f");
  auto m = parse_banner("// -----// IR Dump Before Inliner (inline) ('builtin.module' operation) //----- //");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->op, "builtin.module");
  EXPECT_EQ(m->sym, "");
  EXPECT_EQ(m->arg, "inline");
}

TEST(DumpBanner, MlirSymbolWithParenthesesAndAnonymousNamespacePass) {
  auto b = parse_banner(
      "// -----// IR Dump Before Canonicalizer (canonicalize) ('tt.func' operation: "
      "@triton.language.standard.max__fp32S1024S__(1,)cconstexpr_0_) //----- //");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->sym, "triton.language.standard.max__fp32S1024S__(1,)cconstexpr_0_");
  EXPECT_EQ(b->arg, "canonicalize");
  auto f = parse_banner(
      "// -----// IR Dump After (anonymous namespace)::TestFailurePass Failed (test-pass-failure) //----- //");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, Kind::AfterFailed);
  EXPECT_EQ(f->pass, "(anonymous namespace)::TestFailurePass");
  EXPECT_EQ(f->arg, "test-pass-failure");
}

TEST(DumpBanner, Mlir23PipelineForm) {
  auto b = parse_banner("// -----// IR Dump Before Canonicalizer: canonicalize{max-iterations=10 region-simplify=normal} //----- //");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->pass, "Canonicalizer");
  EXPECT_EQ(b->arg, "canonicalize");
  EXPECT_EQ(b->opts, "{max-iterations=10 region-simplify=normal}");
  auto s = parse_banner("// -----// IR Dump After CSE: cse ('func.func' operation: @g) //----- //");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->arg, "cse");
  EXPECT_EQ(s->sym, "g");
  auto f = parse_banner("// -----// IR Dump After Foo Failed: foo{a=1} //----- //");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, Kind::AfterFailed);
  EXPECT_EQ(f->pass, "Foo");
}

TEST(DumpBanner, TritonPipelinerInternal) {
  auto b = parse_banner("// -----// SoftwarePipeliner internal IR Dump After: LowerLoops");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->family, Family::MlirInternal);
  EXPECT_EQ(b->pass, "LowerLoops");
}

TEST(DumpBanner, LlvmNewPmUnits) {
  auto m = parse_banner("; *** IR Dump After MemProfRemoveInfo on [module] ***");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->family, Family::Llvm);
  EXPECT_EQ(m->unit, "[module]");
  EXPECT_FALSE(m->changed_style);
  auto f = parse_banner("; *** IR Dump Before SROAPass on pick ***");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, Kind::Before);
  EXPECT_EQ(f->unit, "pick");
  auto s = parse_banner("; *** IR Dump After InlinerPass on (sum_sq, sq) ***");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->pass, "InlinerPass");
  EXPECT_EQ(s->unit, "(sum_sq, sq)");
  auto l = parse_banner("; *** IR Dump After LICMPass on loop %for.cond in function sum_sq ***");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->unit, "loop %for.cond in function sum_sq");
  auto i = parse_banner("; *** IR Dump After LoopDeletionPass on loop %for.cond in function spin (invalidated) ***");
  ASSERT_TRUE(i);
  EXPECT_EQ(i->kind, Kind::AfterInvalidated);
  EXPECT_EQ(i->unit, "loop %for.cond in function spin");
  auto t = parse_banner(
      "; *** IR Dump After RequireAnalysisPass<llvm::GlobalsAA, llvm::Module, llvm::AnalysisManager<Module>> on [module] ***");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->pass, "RequireAnalysisPass<llvm::GlobalsAA, llvm::Module, llvm::AnalysisManager<Module>>");
  auto n = parse_banner("; *** IR Dump Before 12-InstCombinePass on foo ***");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->pass, "InstCombinePass");
}

TEST(DumpBanner, PrintChanged) {
  auto s = parse_banner("*** IR Dump At Start ***");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->kind, Kind::AtStart);
  auto o = parse_banner("*** IR Dump After EarlyCSEPass on pick omitted because no change ***");
  ASSERT_TRUE(o);
  EXPECT_EQ(o->kind, Kind::Omitted);
  EXPECT_EQ(o->unit, "pick");
  EXPECT_TRUE(o->changed_style);
  auto f = parse_banner("*** IR Dump After GVNPass on pick filtered out ***");
  ASSERT_TRUE(f);
  EXPECT_EQ(f->kind, Kind::FilteredOut);
  auto g = parse_banner("*** IR Pass PassManager<Function> on pick ignored ***");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->kind, Kind::Ignored);
  EXPECT_EQ(g->pass, "PassManager<Function>");
  EXPECT_EQ(g->unit, "pick");
  auto v = parse_banner("*** IR Pass LoopDeletionPass invalidated ***");
  ASSERT_TRUE(v);
  EXPECT_EQ(v->kind, Kind::Invalidated);
  EXPECT_EQ(v->pass, "LoopDeletionPass");
  auto pm = parse_banner("*** IR Pass PassManager<Loop, LoopAnalysisManager, LoopStandardAnalysisResults &, LPMUpdater &> invalidated ***");
  ASSERT_TRUE(pm);
  EXPECT_EQ(pm->kind, Kind::Invalidated);
  auto d = parse_banner("*** IR Deleted After GlobalDCEPass on helper ***");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->kind, Kind::Deleted);
  EXPECT_EQ(d->unit, "helper");
  auto scc = parse_banner("*** IR Pass DevirtSCCRepeatedPass on (sq) ignored ***");
  ASSERT_TRUE(scc);
  EXPECT_EQ(scc->unit, "(sq)");
}

TEST(DumpBanner, LegacyPmAndMir) {
  auto l = parse_banner("*** IR Dump After Pre-ISel Intrinsic Lowering (pre-isel-intrinsic-lowering) ***");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->family, Family::Llvm);
  EXPECT_EQ(l->pass, "Pre-ISel Intrinsic Lowering");
  EXPECT_EQ(l->arg, "pre-isel-intrinsic-lowering");
  EXPECT_EQ(l->unit, "");
  auto lu = parse_banner("*** IR Dump After Expand IR instructions (expand-ir-insts) on sum_sq omitted because no change ***");
  ASSERT_TRUE(lu);
  EXPECT_EQ(lu->kind, Kind::Omitted);
  EXPECT_EQ(lu->unit, "sum_sq");
  auto m = parse_banner("# *** IR Dump After X86 DAG->DAG Instruction Selection (x86-isel) ***:");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->family, Family::Mir);
  EXPECT_EQ(m->pass, "X86 DAG->DAG Instruction Selection");
  EXPECT_EQ(m->arg, "x86-isel");
  auto mb = parse_banner("# *** IR Dump Before NVPTX Proxy Register Instruction Erasure (nvptx-proxyreg-erasure) ***:");
  ASSERT_TRUE(mb);
  EXPECT_EQ(mb->kind, Kind::Before);
}

TEST(DumpBanner, NotBanners) {
  for (const char *s : {"", "#loc = loc(\"x.py\":1:0)", "; Function Attrs: nounwind", "// comment",
                        "  %0 = arith.addi %a, %b : i32", "*** not a dump ***", "# Machine code for function f:",
                        "// -----// IR Dump Before //----- //", "; *** IR Dump After X ***"})
    EXPECT_FALSE(parse_banner(s)) << s;
  EXPECT_TRUE(parse_banner("; *** IR Dump After X on f ***\r"));
}
