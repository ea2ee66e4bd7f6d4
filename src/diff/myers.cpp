// diff/myers.cpp - Myers' O(ND) diff, linear space (middle-snake divide and
// conquer), with two things that keep it fast on real inputs:
//  * lines that occur nowhere in the other side are marked changed up front
//    and removed, so IR where every SSA name shifted (almost every line unique
//    and unmatched) leaves only the few shared lines to search;
//  * a cost bound: once a search has spent max_cost edit steps without the two
//    halves meeting, it splits at the furthest-reaching diagonal instead (the
//    idea of xdiff's mxcost), giving a near-minimal script in bounded time.
#include "myers.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace lowertrace::diff::detail {

MyersRegion::MyersRegion(Seq a, Seq b, Id alphabet, Marks &m, bool exact)
    : a_(a), b_(b), m_(m), exact_(exact), cnt_a_(alphabet, 0), cnt_b_(alphabet, 0) {}

void MyersRegion::run(int a0, int a1, int b0, int b1) {
  for (int j = b0; j < b1; ++j) ++cnt_b_[b_[j]];
  for (int i = a0; i < a1; ++i) ++cnt_a_[a_[i]];
  ra_.clear(), rb_.clear(), ia_.clear(), ib_.clear();
  for (int i = a0; i < a1; ++i) {
    if (cnt_b_[a_[i]]) ra_.push_back(a_[i]), ia_.push_back(i);
    else m_.a[i] = 1;
  }
  for (int j = b0; j < b1; ++j) {
    if (cnt_a_[b_[j]]) rb_.push_back(b_[j]), ib_.push_back(j);
    else m_.b[j] = 1;
  }
  for (int j = b0; j < b1; ++j) cnt_b_[b_[j]] = 0;
  for (int i = a0; i < a1; ++i) cnt_a_[a_[i]] = 0;

  const int n = static_cast<int>(ra_.size()), mm = static_cast<int>(rb_.size());
  kf_.assign(n + mm + 3, 0);
  kb_.assign(n + mm + 3, 0);
  max_cost_ = std::max(256, static_cast<int>(std::sqrt(double(n + mm))) * 2);
  solve(0, n, 0, mm);
}

// Divide and conquer with an explicit stack: heuristic splits can be lopsided,
// so recursion depth is not bounded by log(n).
void MyersRegion::solve(int a0, int a1, int b0, int b1) {
  struct R {
    int a0, a1, b0, b1;
  };
  std::vector<R> todo{{a0, a1, b0, b1}};
  while (!todo.empty()) {
    R r = todo.back();
    todo.pop_back();
    while (r.a0 < r.a1 && r.b0 < r.b1 && ra_[r.a0] == rb_[r.b0]) ++r.a0, ++r.b0;
    while (r.a0 < r.a1 && r.b0 < r.b1 && ra_[r.a1 - 1] == rb_[r.b1 - 1]) --r.a1, --r.b1;
    if (r.a0 == r.a1 || r.b0 == r.b1) {
      for (int i = r.a0; i < r.a1; ++i) m_.a[ia_[i]] = 1;
      for (int j = r.b0; j < r.b1; ++j) m_.b[ib_[j]] = 1;
      continue;
    }
    auto [x, y] = split(r.a0, r.a1, r.b0, r.b1);
    if ((x == r.a0 && y == r.b0) || (x == r.a1 && y == r.b1)) {
      // Cannot happen for a correct split; never loop forever if it does.
      for (int i = r.a0; i < r.a1; ++i) m_.a[ia_[i]] = 1;
      for (int j = r.b0; j < r.b1; ++j) m_.b[ib_[j]] = 1;
      continue;
    }
    todo.push_back({x, r.a1, y, r.b1});
    todo.push_back({r.a0, x, r.b0, y});
  }
}

// Returns a point (x, y) on an optimal (or, past the cost bound, a good) path
// from (a0, b0) to (a1, b1). Diagonal k = x - y; F[k] is the furthest x the
// forward search reached on k, B[k] the smallest x the backward search did.
std::pair<int, int> MyersRegion::split(int a0, int a1, int b0, int b1) {
  const int off = static_cast<int>(rb_.size()) + 1;
  int *F = kf_.data() + off, *B = kb_.data() + off;
  const Id *A = ra_.data(), *Bs = rb_.data();
  const int dmin = a0 - b1, dmax = a1 - b0;
  const int fmid = a0 - b0, bmid = a1 - b1;
  const bool odd = ((fmid - bmid) & 1) != 0;
  int fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
  F[fmid] = a0;
  B[bmid] = a1;
  for (int d = 1;; ++d) {
    // Widen the forward diagonal range by one each side, or shift it inward
    // (keeping parity) where it already touches the region's edge.
    if (fmin > dmin) F[--fmin - 1] = -1; else ++fmin;
    if (fmax < dmax) F[++fmax + 1] = -1; else --fmax;
    for (int k = fmax; k >= fmin; k -= 2) {
      int x = F[k - 1] >= F[k + 1] ? F[k - 1] + 1 : F[k + 1];
      int y = x - k;
      while (x < a1 && y < b1 && A[x] == Bs[y]) ++x, ++y;
      F[k] = x;
      if (odd && bmin <= k && k <= bmax && B[k] <= x) return {x, y};
    }
    if (bmin > dmin) B[--bmin - 1] = INT_MAX; else ++bmin;
    if (bmax < dmax) B[++bmax + 1] = INT_MAX; else --bmax;
    for (int k = bmax; k >= bmin; k -= 2) {
      int x = B[k - 1] < B[k + 1] ? B[k - 1] : B[k + 1] - 1;
      int y = x - k;
      while (x > a0 && y > b0 && A[x - 1] == Bs[y - 1]) --x, --y;
      B[k] = x;
      if (!odd && fmin <= k && k <= fmax && x <= F[k]) return {x, y};
    }
    if (exact_ || d < max_cost_) continue;
    // Over budget: take whichever search got further along its direction.
    int fbest = -1, fx = a0, fy = b0;
    for (int k = fmax; k >= fmin; k -= 2) {
      int x = std::min(F[k], a1), y = x - k;
      if (y > b1) x = b1 + k, y = b1;
      if (x + y > fbest) fbest = x + y, fx = x, fy = y;
    }
    int bbest = INT_MAX, bx = a1, by = b1;
    for (int k = bmax; k >= bmin; k -= 2) {
      int x = std::max(a0, B[k]), y = x - k;
      if (y < b0) x = b0 + k, y = b0;
      if (x + y < bbest) bbest = x + y, bx = x, by = y;
    }
    if ((a1 + b1) - bbest < fbest - (a0 + b0)) return {fx, fy};
    return {bx, by};
  }
}

Marks myers(Seq a, Seq b, Id alphabet, bool exact) {
  Marks m;
  m.a.assign(a.size(), 0);
  m.b.assign(b.size(), 0);
  MyersRegion r(a, b, alphabet, m, exact);
  r.run(0, static_cast<int>(a.size()), 0, static_cast<int>(b.size()));
  return m;
}

}  // namespace lowertrace::diff::detail
