// Property tests of the line diff against a reference O(n*m) LCS.
#include "diff/core.h"
#include "diff_test_util.h"

namespace lowertrace::diff {
namespace {

using testing::check_script;
using testing::random_lines;
using testing::reference_lcs;
using testing::views;

// Exact Myers (no cost bound) must find a longest common subsequence: its
// equal-line count equals the DP reference on every input.
TEST(DiffProperty, ExactMyersMatchesReferenceLcs) {
  std::mt19937 rng(1234);
  for (int iter = 0; iter < 3000; ++iter) {
    auto a = random_lines(rng, 30, 1 + iter % 6), b = random_lines(rng, 30, 1 + iter % 6);
    auto va = views(a), vb = views(b);
    detail::Interned in = detail::intern(va, vb);
    detail::Marks m = detail::myers(in.a, in.b, in.alphabet, /*exact=*/true);
    int equal = check_script(va, vb, detail::ops_from_marks(m));
    ASSERT_EQ(equal, reference_lcs(a, b)) << "iteration " << iter;
  }
}

// The default (bounded) Myers on inputs far below the cost bound is exact too.
TEST(DiffProperty, BoundedMyersIsExactBelowItsBound) {
  std::mt19937 rng(99);
  for (int iter = 0; iter < 500; ++iter) {
    auto a = random_lines(rng, 120, 4), b = random_lines(rng, 120, 4);
    auto va = views(a), vb = views(b);
    detail::Interned in = detail::intern(va, vb);
    detail::Marks m = detail::myers(in.a, in.b, in.alphabet, /*exact=*/false);
    ASSERT_EQ(check_script(va, vb, detail::ops_from_marks(m)), reference_lcs(a, b));
  }
}

// Past the cost bound (256 edit steps) the script stays valid and near-minimal.
TEST(DiffProperty, BoundedMyersStaysValidPastItsBound) {
  std::mt19937 rng(7);
  for (int iter = 0; iter < 4; ++iter) {
    auto a = random_lines(rng, 3000, 3), b = random_lines(rng, 3000, 3);
    auto va = views(a), vb = views(b);
    detail::Interned in = detail::intern(va, vb);
    detail::Marks m = detail::myers(in.a, in.b, in.alphabet, /*exact=*/false);
    int equal = check_script(va, vb, detail::ops_from_marks(m));
    int lcs = reference_lcs(a, b);
    EXPECT_LE(equal, lcs);
    // Random 3-symbol data of very unequal lengths is the heuristic's worst
    // case: the greedy cut kept 78% of the LCS on these inputs.
    EXPECT_GE(equal, lcs * 3 / 4) << "heuristic split lost more than 25% of the LCS";
  }
}

// The public diff (histogram + fallback + sliding): always a valid script that
// turns a into b. Histogram anchoring is not an LCS algorithm: anchoring on
// the rarest line can cut away matches, which random sequences over 2-8
// symbols provoke far more than real text. Stated bound, measured over these
// 3000 inputs per alphabet: total edits within 25% of the minimum for
// alphabets <= 8 (measured 1.14-1.19), within 3% for 64 symbols (1.01). Unique
// lines (the usual IR case) are found exactly: see the next test.
TEST(DiffProperty, HistogramScriptIsValidAndNearMinimal) {
  std::mt19937 rng(42);
  for (int alphabet : {1, 2, 3, 4, 8, 64}) {
    long long edits_total = 0, min_total = 0;
    for (int iter = 0; iter < 3000; ++iter) {
      auto a = random_lines(rng, 40, alphabet), b = random_lines(rng, 40, alphabet);
      auto va = views(a), vb = views(b);
      int equal = check_script(va, vb, diff_lines(va, vb));
      int lcs = reference_lcs(a, b);
      ASSERT_LE(equal, lcs);
      edits_total += int(a.size() + b.size()) - 2 * equal;
      min_total += int(a.size() + b.size()) - 2 * lcs;
    }
    double ratio = min_total ? double(edits_total) / double(min_total) : 1.0;
    EXPECT_LE(ratio, alphabet == 64 ? 1.03 : 1.25) << "alphabet " << alphabet;
    if (alphabet == 1) {
      EXPECT_EQ(edits_total, min_total);  // one symbol: prefix/suffix is exact
    }
  }
}

// When no line is rare enough to anchor on (every line occurs more than 64
// times), the histogram hands the region to Myers, which is exact below its
// cost bound: then the public diff must find a longest common subsequence.
TEST(DiffProperty, HistogramFallbackIsExactOnCommonLines) {
  std::mt19937 rng(77);
  for (int iter = 0; iter < 40; ++iter) {
    std::vector<std::string> a, b;
    std::uniform_int_distribution<int> len(200, 300);
    for (int k = len(rng); k > 0; --k) a.push_back(rng() % 2 ? "  scf.yield" : "  }");
    for (int k = len(rng); k > 0; --k) b.push_back(rng() % 2 ? "  scf.yield" : "  }");
    auto va = views(a), vb = views(b);
    ASSERT_EQ(check_script(va, vb, diff_lines(va, vb)), reference_lcs(a, b)) << "iteration " << iter;
  }
}

// Mutations of one text (like a pass's before/after): the diff must find every
// untouched line when lines are unique, i.e. be exactly minimal.
TEST(DiffProperty, EditsOfUniqueLinesAreFoundExactly) {
  std::mt19937 rng(5);
  for (int iter = 0; iter < 500; ++iter) {
    std::vector<std::string> a, b;
    int n = 1 + iter % 60, fresh = 0;
    for (int k = 0; k < n; ++k) a.push_back("line " + std::to_string(k));
    for (const auto &s : a) {
      int r = rng() % 10;
      if (r == 0) continue;                                           // delete
      if (r == 1) b.push_back("new " + std::to_string(fresh++));      // replace
      else b.push_back(s);
      if (r == 2) b.push_back("new " + std::to_string(fresh++));      // insert
    }
    auto va = views(a), vb = views(b);
    ASSERT_EQ(check_script(va, vb, diff_lines(va, vb)), reference_lcs(a, b));
  }
}

TEST(DiffProperty, EmptyInputs) {
  std::vector<std::string_view> none, two{"p", "q"};
  EXPECT_TRUE(diff_lines(none, none).empty());
  auto ins = diff_lines(none, two);
  ASSERT_EQ(ins.size(), 1u);
  EXPECT_EQ(ins[0].kind, Op::Insert);
  EXPECT_EQ(ins[0].b_len, 2u);
  auto del = diff_lines(two, none);
  ASSERT_EQ(del.size(), 1u);
  EXPECT_EQ(del[0].kind, Op::Delete);
}

// Inserting a repeated line is shown at the end of the repeat (git, GNU diff).
TEST(DiffProperty, InsertionSlidesToEndOfRepeat) {
  std::vector<std::string_view> a{"a", "}", "b"}, b{"a", "}", "}", "b"};
  auto ops = diff_lines(a, b);
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[1].kind, Op::Insert);
  EXPECT_EQ(ops[1].b_pos, 2u);
}

}  // namespace
}  // namespace lowertrace::diff
