// intraline() spans and SSA renumbering detection.
#include "diff_test_util.h"

namespace lowertrace::diff {
namespace {

std::string spans_text(std::string_view s, const std::vector<Span> &spans) {
  std::string out;
  for (const Span &sp : spans) out += "[" + std::string(s.substr(sp.pos, sp.len)) + "]";
  return out;
}

TEST(DiffIntraline, EqualLinesHaveNoSpans) {
  LinePairDiff d = intraline("same", "same");
  EXPECT_TRUE(d.a_spans.empty());
  EXPECT_TRUE(d.b_spans.empty());
  EXPECT_FALSE(d.whitespace_only);
}

TEST(DiffIntraline, ChangedWordIsNarrowedToDifferingCharacters) {
  std::string_view a = "  %12 = arith.addi %10, %11 : i32";
  std::string_view b = "  %12 = arith.muli %10, %11 : i32";
  LinePairDiff d = intraline(a, b);
  EXPECT_EQ(spans_text(a, d.a_spans), "[add]");
  EXPECT_EQ(spans_text(b, d.b_spans), "[mul]");
  EXPECT_FALSE(d.whitespace_only);
}

TEST(DiffIntraline, SeveralChangesGiveSeveralSpans) {
  std::string_view a = "x = f(a, b) : i32", b = "x = g(a, c) : i64";
  LinePairDiff d = intraline(a, b);
  EXPECT_EQ(spans_text(a, d.a_spans), "[f][b][32]");
  EXPECT_EQ(spans_text(b, d.b_spans), "[g][c][64]");
}

TEST(DiffIntraline, PureInsertionHasOnlyNewSideSpan) {
  std::string_view a = "call @f(%a)", b = "call @f(%a, %b)";
  LinePairDiff d = intraline(a, b);
  EXPECT_TRUE(d.a_spans.empty());
  EXPECT_EQ(spans_text(b, d.b_spans), "[, %b]");
}

TEST(DiffIntraline, WhitespaceOnlyDetection) {
  LinePairDiff d = intraline("  return %0", "    return  %0");
  EXPECT_TRUE(d.whitespace_only);
  EXPECT_FALSE(d.a_spans.empty() && d.b_spans.empty());
  EXPECT_TRUE(intraline("a\tb", "a b").whitespace_only);
  EXPECT_FALSE(intraline("return %0", "return %1").whitespace_only);
  EXPECT_FALSE(intraline("ab", "a.b").whitespace_only);
}

TEST(DiffIntraline, SpansStayInsideTheirLines) {
  std::mt19937 rng(11);
  const std::string chars = "ab %_1,. ";
  for (int iter = 0; iter < 2000; ++iter) {
    std::string a, b;
    for (int k = rng() % 20; k > 0; --k) a += chars[rng() % chars.size()];
    for (int k = rng() % 20; k > 0; --k) b += chars[rng() % chars.size()];
    LinePairDiff d = intraline(a, b);
    // Removing the a spans and the b spans must leave the same text: what is
    // outside the spans is exactly what both lines share, in order.
    auto outside = [](const std::string &s, const std::vector<Span> &sp) {
      std::string out;
      std::uint32_t at = 0;
      for (const Span &x : sp) {
        EXPECT_GE(x.pos, at);
        EXPECT_LE(x.pos + x.len, s.size());
        out += s.substr(at, x.pos - at);
        at = x.pos + x.len;
      }
      return out + s.substr(std::min<std::size_t>(at, s.size()));
    };
    ASSERT_EQ(outside(a, d.a_spans), outside(b, d.b_spans)) << a << " | " << b;
    if (a != b) {
      ASSERT_FALSE(d.a_spans.empty() && d.b_spans.empty());
    }
  }
}

TEST(DiffSsa, RenumberedNamesAreEqual) {
  // MLIR values, named constants, block arguments and labels.
  EXPECT_TRUE(equal_modulo_ssa("  %5 = arith.addi %3, %4 : i32", "  %6 = arith.addi %4, %5 : i32"));
  EXPECT_TRUE(equal_modulo_ssa("  %0 = arith.addi %c0_i32, %arg1 : i32",
                               "  %1 = arith.addi %c0_i32_0, %arg2 : i32"));
  EXPECT_TRUE(equal_modulo_ssa("  cf.br ^bb3(%7 : index)", "  cf.br ^bb4(%8 : index)"));
  EXPECT_TRUE(equal_modulo_ssa("  %2:2 = foo %0#1", "  %3:2 = foo %1#1"));
  // Attribute aliases: Triton locations and layouts, LLVM attribute groups.
  EXPECT_TRUE(equal_modulo_ssa("    %4 = tt.splat %3 : i32 -> tensor<1024xi32, #blocked> loc(#loc12)",
                               "    %5 = tt.splat %4 : i32 -> tensor<1024xi32, #blocked1> loc(#loc13)"));
  EXPECT_TRUE(equal_modulo_ssa("#loc12 = loc(\"/t/k.py\":23:4)", "#loc14 = loc(\"/t/k.py\":23:4)"));
  EXPECT_TRUE(equal_modulo_ssa("  call void @f() #0", "  call void @f() #2"));
  // LLVM IR numbered and named values.
  EXPECT_TRUE(equal_modulo_ssa("  %5 = load i32, ptr %x.addr, align 4",
                               "  %6 = load i32, ptr %y.addr, align 4"));
  EXPECT_TRUE(equal_modulo_ssa("  store ptr %\"a b\", ptr %1", "  store ptr %\"c\", ptr %2"));
  // PTX registers.
  EXPECT_TRUE(equal_modulo_ssa("\tadd.s32 \t%r12, %r10, %r11;", "\tadd.s32 \t%r13, %r11, %r12;"));
  EXPECT_TRUE(equal_modulo_ssa("\tld.global.u64 %rd3, [%rd2];", "\tld.global.u64 %rd4, [%rd1];"));
  EXPECT_TRUE(equal_modulo_ssa("\t@%p1 bra $L__BB0_2;", "\t@%p2 bra $L__BB0_2;"));
}

TEST(DiffSsa, RealChangesAreNotRenumbering) {
  EXPECT_FALSE(equal_modulo_ssa("  %5 = arith.addi %3, %4 : i32", "  %5 = arith.muli %3, %4 : i32"));
  EXPECT_FALSE(equal_modulo_ssa("  %5 = arith.addi %3, %4 : i32", "  %5 = arith.addi %3, %4 : i64"));
  // Same name used twice vs two different names: the data flow changed.
  EXPECT_FALSE(equal_modulo_ssa("  %5 = arith.addi %3, %3 : i32", "  %6 = arith.addi %4, %5 : i32"));
  // Constants and symbols are not SSA names.
  EXPECT_FALSE(equal_modulo_ssa("  %c = arith.constant 1 : i32", "  %c = arith.constant 2 : i32"));
  EXPECT_FALSE(equal_modulo_ssa("  call @foo(%0)", "  call @bar(%0)"));
  // PTX special registers are hardware state, not values.
  EXPECT_FALSE(equal_modulo_ssa("\tmov.u32 %r1, %tid.x;", "\tmov.u32 %r1, %ctaid.x;"));
  // Format strings are literal text.
  EXPECT_FALSE(equal_modulo_ssa("  @s = c\"%d\\0A\"", "  @s = c\"%x\\0A\""));
  // Dialect attributes are not aliases; different locations are real changes.
  EXPECT_FALSE(equal_modulo_ssa("  %0 = x : tensor<4xf32, #ttg.shared>", "  %0 = x : tensor<4xf32, #ttg.dot_op>"));
  EXPECT_FALSE(equal_modulo_ssa("#loc12 = loc(\"/t/k.py\":23:4)", "#loc12 = loc(\"/t/k.py\":24:4)"));
  // A value and a block label are different kinds.
  EXPECT_FALSE(equal_modulo_ssa("  br %1", "  br ^bb1"));
}

TEST(DiffSsa, ClassifyCountsRenumberingAsNoise) {
  // One real insertion at the top shifts every later name by one.
  std::string before =
      "func.func @f(%arg0: i32) -> i32 {\n"
      "  %0 = arith.addi %arg0, %arg0 : i32\n"
      "  %1 = arith.muli %0, %0 : i32\n"
      "  %2 = arith.subi %1, %0 : i32\n"
      "  return %2 : i32\n"
      "}\n";
  std::string after =
      "func.func @f(%arg0: i32) -> i32 {\n"
      "  %0 = arith.constant 7 : i32\n"
      "  %1 = arith.addi %arg0, %arg0 : i32\n"
      "  %2 = arith.muli %1, %1 : i32\n"
      "  %3 = arith.subi %2, %1 : i32\n"
      "  return %3 : i32\n"
      "}\n";
  ChangeSummary c = classify(before, after);
  EXPECT_EQ(c.stats.del_lines, 4);
  EXPECT_EQ(c.stats.add_lines, 5);
  // The four shifted lines match their old versions; the constant is new.
  EXPECT_EQ(c.paired, 4);
  EXPECT_EQ(c.renumbered, 4);
  EXPECT_EQ(c.whitespace_only, 0);

  std::vector<std::string_view> a{"  %0 = arith.addi %arg0, %arg0 : i32", "  %1 = arith.muli %0, %0 : i32",
                                  "  return %1 : i32"};
  std::vector<std::string_view> b{"  %1 = arith.addi %arg0, %arg0 : i32", "  %2 = arith.muli %1, %1 : i32",
                                  "  return %3 : i32"};
  // `return %1` -> `return %3`: the muli became %2, so %3 is a new value.
  EXPECT_EQ(renumbered_pairs(a, b, diff_lines(a, b)), 2);
  std::vector<std::string_view> c2{"  %1 = arith.addi %arg0, %arg0 : i32", "  %2 = arith.muli %1, %0 : i32",
                                   "  return %3 : i64"};
  EXPECT_EQ(renumbered_pairs(a, c2, diff_lines(a, c2)), 1);
}

TEST(DiffSsa, ClassifyOneLineAgainstSeveral) {
  ChangeSummary c = classify("  %0 = foo %arg0\n", "  %0 = bar\n  %1 = foo %arg0\n");
  EXPECT_EQ(c.paired, 1);
  EXPECT_EQ(c.renumbered, 1);
  c = classify("  %0 = bar\n  %1 = foo %arg0\n  %2 = baz\n", "  %7 = foo %arg0\n");
  EXPECT_EQ(c.paired, 1);
  EXPECT_EQ(c.renumbered, 1);
  c = classify("  %0 = bar\n  %1 = baz\n", "  %7 = foo %arg0\n");
  EXPECT_EQ(c.paired, 0);
  EXPECT_EQ(c.renumbered, 0);
}

TEST(DiffSsa, ClassifyWhitespaceAndNewline) {
  ChangeSummary c = classify("a b\nx\n", "a  b\nx");
  EXPECT_EQ(c.paired, 2);  // "a b"/"a  b" and "x"/"x"
  EXPECT_EQ(c.whitespace_only, 1);
  EXPECT_EQ(c.renumbered, 0);  // "x" vs "x" (newline only) is not renumbering
}

}  // namespace
}  // namespace lowertrace::diff
