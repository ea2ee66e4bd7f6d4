// diff/script.cpp - from change marks to the edit script (Op runs), plus the
// public diff_lines() entry point.
#include "core.h"

namespace lowertrace::diff::detail {
namespace {

// Slides each pure run of changed x lines (no changed y line at the same
// spot) down while the line after it equals its first line. Any such slide
// keeps the script valid: the unchanged lines keep the same contents in the
// same order. It stops before the run would touch a change on the other side,
// so a pure insertion never silently turns into a replacement.
void compact_side(Seq x, std::vector<std::uint8_t> &cx, const std::vector<std::uint8_t> &cy) {
  const int nx = static_cast<int>(x.size()), ny = static_cast<int>(cy.size());
  int i = 0, j = 0;
  while (i < nx) {
    if (!cx[i]) {
      while (j < ny && cy[j]) ++j;
      ++i, ++j;
      continue;
    }
    int s = i, e = i;
    while (e < nx && cx[e]) ++e;
    if (j < ny && cy[j]) {  // a replacement: leave it where it is
      i = e;
      continue;
    }
    while (e < nx && x[s] == x[e]) {
      if (j + 1 < ny && cy[j + 1]) break;
      cx[s] = 0, cx[e] = 1;
      ++s, ++e, ++j;
      if (e < nx && cx[e]) break;  // merged into the next run
    }
    i = e;
  }
}

}  // namespace

void compact(Marks &m, Seq a, Seq b) {
  compact_side(a, m.a, m.b);
  compact_side(b, m.b, m.a);
}

std::vector<Op> ops_from_marks(const Marks &m) {
  std::vector<Op> ops;
  const auto na = static_cast<std::uint32_t>(m.a.size()), nb = static_cast<std::uint32_t>(m.b.size());
  std::uint32_t i = 0, j = 0;
  while (i < na || j < nb) {
    std::uint32_t s = i, t = j;
    // A run past the other side's end would mean inconsistent marks; treat
    // such lines as changed rather than emitting a lopsided Equal run.
    while (i < na && (m.a[i] || j >= nb)) ++i;
    if (i > s) ops.push_back({Op::Delete, s, i - s, j, 0});
    while (j < nb && (m.b[j] || i >= na)) ++j;
    if (j > t) ops.push_back({Op::Insert, i, 0, t, j - t});
    s = i, t = j;
    while (i < na && j < nb && !m.a[i] && !m.b[j]) ++i, ++j;
    if (i > s) ops.push_back({Op::Equal, s, i - s, t, j - t});
  }
  return ops;
}

std::vector<Op> diff_texts(const Lines &a, const Lines &b) {
  Interned in = intern(a.lines, b.lines, !a.final_newline, !b.final_newline);
  Marks m = histogram(in.a, in.b, in.alphabet);
  compact(m, in.a, in.b);
  return ops_from_marks(m);
}

}  // namespace lowertrace::diff::detail

namespace lowertrace::diff {

std::vector<Op> diff_lines(const std::vector<std::string_view> &a,
                           const std::vector<std::string_view> &b) {
  detail::Interned in = detail::intern(a, b);
  detail::Marks m = detail::histogram(in.a, in.b, in.alphabet);
  detail::compact(m, in.a, in.b);
  return detail::ops_from_marks(m);
}

}  // namespace lowertrace::diff
