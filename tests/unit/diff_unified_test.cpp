// unified() and stats(): format details, trailing newlines, and a comparison
// with the real GNU diff -u on generated inputs.
#include "diff_test_util.h"

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace lowertrace::diff {
namespace {

using testing::join;

UnifiedOptions opts(int ctx = 3) {
  UnifiedOptions o;
  o.context = ctx;
  return o;
}

// Counts '+'/'-' body lines of a unified diff (not the ---/+++ header).
Stats count_rendered(const std::string &u) {
  Stats s;
  std::size_t pos = 0;
  int line_no = 0;
  while (pos < u.size()) {
    std::size_t nl = u.find('\n', pos);
    std::string_view l(u.data() + pos, nl - pos);
    if (line_no++ >= 2) {
      if (!l.empty() && l[0] == '+') ++s.add_lines;
      if (!l.empty() && l[0] == '-') ++s.del_lines;
    }
    pos = nl + 1;
  }
  return s;
}

TEST(DiffUnified, EqualTextsGiveNothing) {
  EXPECT_EQ(unified("a\nb\n", "a\nb\n", opts()), "");
  Stats s = stats("a\n", "a\n");
  EXPECT_EQ(s.add_lines + s.del_lines, 0);
  EXPECT_FALSE(s.only_final_newline);
}

TEST(DiffUnified, SimpleChangeHasGitFormat) {
  UnifiedOptions o = opts();
  o.label_a = "x/before";
  o.label_b = "x/after";
  EXPECT_EQ(unified("a\nb\nc\n", "a\nB\nc\n", o),
            "--- x/before\n+++ x/after\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}

// A zero-length side names the line before it; a one-line side drops ",1".
TEST(DiffUnified, HunkHeaderZeroAndOneLengthConventions) {
  EXPECT_EQ(unified("", "x\n", opts()), "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n");
  EXPECT_EQ(unified("x\n", "", opts()), "--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n");
  EXPECT_EQ(unified("a\nb\n", "a\nn\nb\n", opts(0)), "--- a\n+++ b\n@@ -1,0 +2 @@\n+n\n");
}

// Huge or negative context sizes behave like "whole file" and "none".
TEST(DiffUnified, ExtremeContextSizes) {
  std::string a = "1\n2\n3\n4\n5\n6\n7\n8\n9\n", b = "1\n2\nx\n4\n5\n6\n7\n8\ny\n";
  EXPECT_EQ(unified(a, b, opts(INT32_MAX)),
            "--- a\n+++ b\n@@ -1,9 +1,9 @@\n 1\n 2\n-3\n+x\n 4\n 5\n 6\n 7\n 8\n-9\n+y\n");
  EXPECT_EQ(unified(a, b, opts(-5)), unified(a, b, opts(0)));
  EXPECT_EQ(unified(a, b, opts(0)), "--- a\n+++ b\n@@ -3 +3 @@\n-3\n+x\n@@ -9 +9 @@\n-9\n+y\n");
}

TEST(DiffUnified, TrailingNewlineOnlyIsShownAndCounted) {
  const std::string want_rm =
      "--- a\n+++ b\n@@ -1,2 +1,2 @@\n p\n-x\n+x\n\\ No newline at end of file\n";
  EXPECT_EQ(unified("p\nx\n", "p\nx", opts()), want_rm);
  const std::string want_add =
      "--- a\n+++ b\n@@ -1,2 +1,2 @@\n p\n-x\n\\ No newline at end of file\n+x\n";
  EXPECT_EQ(unified("p\nx", "p\nx\n", opts()), want_add);
  for (auto [x, y] : {std::pair{"x\n", "x"}, {"x", "x\n"}}) {
    Stats s = stats(x, y);
    EXPECT_EQ(s.add_lines, 1);
    EXPECT_EQ(s.del_lines, 1);
    EXPECT_TRUE(s.only_final_newline);
  }
  EXPECT_FALSE(stats("x\n", "y").only_final_newline);
  EXPECT_FALSE(stats("", "\n").only_final_newline);  // an empty line was added
}

TEST(DiffUnified, UnterminatedLastLineAsContext) {
  EXPECT_EQ(unified("a\nb\nz", "A\nb\nz", opts()),
            "--- a\n+++ b\n@@ -1,3 +1,3 @@\n-a\n+A\n b\n z\n\\ No newline at end of file\n");
}

TEST(DiffUnified, ColourWrapsEachKindOfLine) {
  UnifiedOptions o = opts();
  o.color = true;
  std::string u = unified("a\n", "b\n", o);
  EXPECT_NE(u.find("\x1b[1m--- a\x1b[m\n"), std::string::npos);
  EXPECT_NE(u.find("\x1b[36m@@ -1 +1 @@\x1b[m\n"), std::string::npos);
  EXPECT_NE(u.find("\x1b[31m-a\x1b[m\n"), std::string::npos);
  EXPECT_NE(u.find("\x1b[32m+b\x1b[m\n"), std::string::npos);
}

// stats() must agree with what unified() renders, for any context size.
TEST(DiffUnified, StatsMatchRenderedLines) {
  std::mt19937 rng(3);
  for (int iter = 0; iter < 400; ++iter) {
    auto a = testing::random_lines(rng, 30, 5), b = testing::random_lines(rng, 30, 5);
    std::string ta = join(a, rng() % 4 != 0), tb = join(b, rng() % 4 != 0);
    Stats s = stats(ta, tb);
    Stats r = count_rendered(unified(ta, tb, opts(iter % 4)));
    ASSERT_EQ(s.add_lines, r.add_lines) << ta << "---\n" << tb;
    ASSERT_EQ(s.del_lines, r.del_lines);
  }
}

// --- against GNU diff -u -----------------------------------------------------

std::string write_temp(const std::string &text) {
  char path[] = "/tmp/lt_diff_test_XXXXXX";
  int fd = mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
  close(fd);
  return path;
}

// GNU diff's output without its two header lines (they carry timestamps).
std::string gnu_diff_body(const std::string &a, const std::string &b, int ctx) {
  std::string pa = write_temp(a), pb = write_temp(b);
  std::string cmd = "/usr/bin/diff -U" + std::to_string(ctx) + " " + pa + " " + pb;
  FILE *p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  pclose(p);
  unlink(pa.c_str());
  unlink(pb.c_str());
  for (int k = 0; k < 2 && !out.empty(); ++k) out.erase(0, out.find('\n') + 1);
  return out;
}

std::string our_body(const std::string &a, const std::string &b, int ctx) {
  std::string u = unified(a, b, opts(ctx));
  for (int k = 0; k < 2 && !u.empty(); ++k) u.erase(0, u.find('\n') + 1);
  return u;
}

// Edits of a text with distinct lines: the longest common subsequence is
// unique, so any correct diff has the same hunks, and the output must match
// GNU diff byte for byte (hunk merging, ranges, context, no-newline marks).
TEST(DiffUnified, MatchesGnuDiffOnGeneratedEdits) {
  if (access("/usr/bin/diff", X_OK) != 0) GTEST_SKIP() << "/usr/bin/diff not installed";
  std::mt19937 rng(2024);
  int compared = 0, nonempty = 0;
  for (int iter = 0; iter < 60; ++iter) {
    std::vector<std::string> a, b;
    int n = iter % 7 == 0 ? iter % 3 : 5 + static_cast<int>(rng() % 60), fresh = 0;
    for (int k = 0; k < n; ++k) a.push_back("  %" + std::to_string(k) + " = op" + std::to_string(k));
    for (const auto &s : a) {
      int r = static_cast<int>(rng() % 12);
      if (r == 0) continue;
      if (r == 1) b.push_back("new line " + std::to_string(fresh++));
      else b.push_back(s);
      if (r == 2 || r == 3) b.push_back("inserted " + std::to_string(fresh++));
    }
    if (iter % 5 == 0) b.push_back("tail " + std::to_string(fresh++));
    std::string ta = join(a, iter % 3 != 1), tb = join(b, iter % 4 != 2);
    for (int ctx : {0, 1, 3}) {
      std::string gnu = gnu_diff_body(ta, tb, ctx);
      ASSERT_EQ(our_body(ta, tb, ctx), gnu) << "iteration " << iter << " context " << ctx;
      ++compared;
      nonempty += !gnu.empty();
    }
  }
  EXPECT_EQ(compared, 180);
  EXPECT_GT(nonempty, 150);  // the comparison really saw diffs
}

TEST(DiffUnified, MatchesGnuDiffOnTrailingNewlineCases) {
  if (access("/usr/bin/diff", X_OK) != 0) GTEST_SKIP() << "/usr/bin/diff not installed";
  const char *cases[][2] = {{"x\n", "x"}, {"x", "x\n"}, {"a\nb", "a\nc"}, {"", "q"},
                            {"q", ""},    {"a\nb\nc\nd\ne\nf\ng", "a\nb\nc\nd\ne\nf\ng\n"}};
  for (auto &c : cases)
    for (int ctx : {0, 3}) EXPECT_EQ(our_body(c[0], c[1], ctx), gnu_diff_body(c[0], c[1], ctx));
}

}  // namespace
}  // namespace lowertrace::diff
