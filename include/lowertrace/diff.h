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
// Names are renamed per line in order of first appearance (%0 %1 ..., ^bb0
// ^bb1 ... and attribute aliases #loc3 #map1 / LLVM #0, separately), so `%5 = add %3, %3` matches `%6 = add %4, %4`
// but not `%6 = add %4, %5`. Text inside "..." literals is compared as is.
// PTX special registers (%tid.x, %ctaid.y, %laneid, ...) are not renamed.
// Being per line, a consistent permutation of names inside one line (e.g.
// swapped operands `%3, %4` -> `%4, %3`) also counts as equal.
bool equal_modulo_ssa(std::string_view a, std::string_view b);

// Classifies a text diff so reports can show SSA renumbering as noise, not
// change. Within each change (a run of deleted lines followed by a run of
// inserted ones) the deleted and inserted lines are matched, in order, on
// their form with SSA names canonicalised and whitespace removed (an LCS, so
// after one inserted op shifts every later name the other lines still match
// their old versions). A matched pair of different lines is whitespace_only
// when only whitespace differs, and renumbered when one renaming of the whole
// snapshot maps it (each name to the name at the same place in the line its
// definition is paired with, both ways; per function): swapped operands or a
// use rewired to another value are real changes, though equal_modulo_ssa().
struct ChangeSummary {
  Stats stats;              // as stats(): all +/- lines
  int paired = 0;           // matched (deleted, inserted) pairs
  int renumbered = 0;       // pairs that differ only by SSA names (+ maybe spaces)
  int whitespace_only = 0;  // pairs that differ only in whitespace
};
ChangeSummary classify(std::string_view before, std::string_view after);

// The renumbered count of classify() on an existing script, e.g. ops from
// diff_lines(a, b). Lines that differ only in whitespace are not counted.
int renumbered_pairs(const std::vector<std::string_view> &a,
                     const std::vector<std::string_view> &b, const std::vector<Op> &ops);

}  // namespace lowertrace::diff
