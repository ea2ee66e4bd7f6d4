// lowertrace/diff.h - pure line and intraline diffs (no I/O, no global state).
//
// The line diff anchors on lines that are rare in both inputs (histogram
// diff, as in git's xdiff) and falls back to a cost-bounded Myers search in
// linear memory, so repetitive IR where every SSA name shifted stays fast.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lowertrace::diff {

// Splits text into lines without their '\n'. `final_newline` says whether the
// text ended with '\n' (a difference there alone is a real, shown change).
struct Lines {
  std::vector<std::string_view> lines;
  bool final_newline = true;
};
Lines split_lines(std::string_view text);

// A maximal run of one kind: a[a_pos, a_pos+a_len) vs b[b_pos, b_pos+b_len).
// Equal runs have a_len == b_len; Delete has b_len == 0; Insert has a_len == 0.
struct Op {
  enum Kind : std::uint8_t { Equal, Delete, Insert } kind;
  std::uint32_t a_pos, a_len, b_pos, b_len;
};

// Minimal-ish line script turning a into b (deletes before inserts in a change).
std::vector<Op> diff_lines(const std::vector<std::string_view> &a,
                           const std::vector<std::string_view> &b);

struct Stats {
  int add_lines = 0;
  int del_lines = 0;
  bool only_final_newline = false;  // texts differ only by the trailing '\n'
};
// The +/- counts that unified() shows for the same texts.
Stats stats(std::string_view before, std::string_view after);

struct UnifiedOptions {
  int context = 3;
  std::string label_a = "a";
  std::string label_b = "b";
  bool color = false;  // ANSI: ---/+++ bold, @@ cyan, - red, + green
};
// git-style unified diff ("\ No newline at end of file" included); "" when equal.
std::string unified(std::string_view before, std::string_view after, const UnifiedOptions &opt);

// Intraline: spans of a changed line pair that differ, on word/char granularity.
struct Span {
  std::uint32_t pos, len;
};
struct LinePairDiff {
  std::vector<Span> a_spans, b_spans;
  bool whitespace_only = false;
};
LinePairDiff intraline(std::string_view a, std::string_view b);

// SSA renumbering: true when a and b are equal once SSA value/block names
// (%0, %arg1, %x_12, ^bb3, LLVM %5, PTX %r12) are replaced by placeholders.
// Names are renamed per line in order of first appearance (%0 %1 ... and
// ^bb0 ^bb1 ... separately), so `%5 = add %3, %3` matches `%6 = add %4, %4`
// but not `%6 = add %4, %5`. Text inside "..." literals is compared as is.
// PTX special registers (%tid.x, %ctaid.y, %laneid, ...) are not renamed.
bool equal_modulo_ssa(std::string_view a, std::string_view b);

// Classifies a line diff: the changed lines of each change (a run of deletes
// followed by a run of inserts) are paired by position, k-th deleted with
// k-th inserted; a pair is `renumbered` when the two lines are equal modulo
// SSA names, and `whitespace_only` when they differ only in whitespace.
// Reports show renumbered pairs as noise ("SSA renumbering") not as change.
struct ChangeSummary {
  Stats stats;              // as stats(): all +/- lines
  int paired = 0;           // changed line pairs considered
  int renumbered = 0;       // pairs of different lines equal modulo SSA names
  int whitespace_only = 0;  // pairs that differ only in whitespace
};
ChangeSummary classify(std::string_view before, std::string_view after);

// The same count on an existing script (ops from diff_lines(a, b)).
int renumbered_pairs(const std::vector<std::string_view> &a,
                     const std::vector<std::string_view> &b, const std::vector<Op> &ops);

}  // namespace lowertrace::diff
