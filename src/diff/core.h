// diff/core.h - internals of the line diff, shared by the public functions and
// the unit tests (which check the exact fallback against a reference LCS).
//
// Everything works on interned sequences: each line is replaced by a small
// integer id, so comparing two lines is one integer compare.
#pragma once

#include "lowertrace/diff.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace lowertrace::diff::detail {

using Id = std::uint32_t;
using Seq = std::span<const Id>;

// Both texts as id sequences over one shared alphabet [0, alphabet).
struct Interned {
  std::vector<Id> a, b;
  Id alphabet = 0;
};
// Equal content gives equal ids. `a_noeol_last` / `b_noeol_last` make a last
// line that lacks its '\n' differ from the same text with one, as git does:
// "x\n" vs "x" is a one-line change, not equality.
Interned intern(const std::vector<std::string_view> &a, const std::vector<std::string_view> &b,
                bool a_noeol_last = false, bool b_noeol_last = false);

// Change marks: ca[i] != 0 when a[i] is deleted, cb[j] != 0 when b[j] is
// inserted. The unmarked lines of a and b are equal pairwise, in order.
struct Marks {
  std::vector<std::uint8_t> a, b;
};

// The histogram diff with its cost-bounded Myers fallback (the default).
Marks histogram(Seq a, Seq b, Id alphabet);

// Myers alone. With `cost_bound` <= 0 the search is exact (a minimal edit
// script); otherwise the bound is max(256, ~sqrt(n+m)) as in xdiff and the
// script is only near-minimal on pathological inputs.
Marks myers(Seq a, Seq b, Id alphabet, bool exact = false);

// Slides runs of changed lines down over equal neighbours (like git and GNU
// diff) so insertions of repeated lines land at the end of the repeat.
void compact(Marks &m, Seq a, Seq b);

// Maximal runs, deletes before inserts in each change.
std::vector<Op> ops_from_marks(const Marks &m);

// Interns and diffs two split texts (trailing-newline aware).
std::vector<Op> diff_texts(const Lines &a, const Lines &b);

}  // namespace lowertrace::diff::detail
