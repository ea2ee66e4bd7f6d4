// diff/histogram.cpp - histogram diff (the idea of git's xdiff histogram).
//
// For a region, count how often each line occurs on the a side and anchor on
// the common line that occurs least often, extended to the longest equal run
// around it; then do the same left and right of the anchor. Rare lines (a
// function's signature, a unique op) make good anchors in IR, where most lines
// are variations of a few templates.
//
// Two departures from xdiff, both for speed on 100k-line inputs:
//  * when a region has lines that occur exactly once on both sides, all of
//    them are anchored at once, keeping the longest increasing subsequence of
//    their positions (the patience-diff step). Anchoring them one per level,
//    as plain histogram does, costs O(n) per anchor, O(n^2) in all, on inputs
//    where unique lines alternate with changed ones;
//  * the total anchoring work is budgeted; regions left when the budget runs
//    out, and regions whose rarest common line occurs more than kMaxChain
//    times (or that share no line), go to the cost-bounded Myers fallback.
#include "core.h"
#include "myers.h"

#include <algorithm>

namespace lowertrace::diff::detail {
namespace {

constexpr std::uint32_t kMaxChain = 64;  // as xdiff: commoner lines are no anchors

struct Region {
  int a0, a1, b0, b1;
};

class Histogram {
 public:
  Histogram(Seq a, Seq b, Id alphabet, Marks &m)
      : a_(a), b_(b), m_(m), cnt_a_(alphabet, 0), cnt_b_(alphabet, 0),
        head_a_(alphabet, -1), next_a_(a.size(), -1), fallback_(a, b, alphabet, m, false) {
    budget_ = 32 * static_cast<long long>(a.size() + b.size()) + 100000;
  }

  void run() {
    todo_.push_back({0, static_cast<int>(a_.size()), 0, static_cast<int>(b_.size())});
    while (!todo_.empty()) {
      Region r = todo_.back();
      todo_.pop_back();
      step(r);
    }
  }

 private:
  void step(Region r) {
    while (r.a0 < r.a1 && r.b0 < r.b1 && a_[r.a0] == b_[r.b0]) ++r.a0, ++r.b0;
    while (r.a0 < r.a1 && r.b0 < r.b1 && a_[r.a1 - 1] == b_[r.b1 - 1]) --r.a1, --r.b1;
    if (r.a0 == r.a1 || r.b0 == r.b1) {
      for (int i = r.a0; i < r.a1; ++i) m_.a[i] = 1;
      for (int j = r.b0; j < r.b1; ++j) m_.b[j] = 1;
      return;
    }
    if (work_ > budget_) return fallback_.run(r.a0, r.a1, r.b0, r.b1);
    work_ += (r.a1 - r.a0) + (r.b1 - r.b0);

    // Occurrence counts and, per id, the chain of its a positions (ascending).
    for (int i = r.a1 - 1; i >= r.a0; --i) {
      Id id = a_[i];
      ++cnt_a_[id];
      next_a_[i] = head_a_[id];
      head_a_[id] = i;
    }
    for (int j = r.b0; j < r.b1; ++j) ++cnt_b_[b_[j]];

    bool done = anchor_unique(r) || anchor_rarest(r);
    for (int i = r.a0; i < r.a1; ++i) cnt_a_[a_[i]] = 0, head_a_[a_[i]] = -1;
    for (int j = r.b0; j < r.b1; ++j) cnt_b_[b_[j]] = 0;
    if (!done) fallback_.run(r.a0, r.a1, r.b0, r.b1);
  }

  // Patience step: lines unique on both sides, longest increasing run of
  // their a positions in b order; the regions between them are queued.
  bool anchor_unique(const Region &r) {
    pairs_.clear();
    for (int j = r.b0; j < r.b1; ++j) {
      Id id = b_[j];
      if (cnt_a_[id] == 1 && cnt_b_[id] == 1) pairs_.push_back({head_a_[id], j});
    }
    if (pairs_.empty()) return false;
    // LIS over pairs_[k].first (distinct values) with predecessor links.
    tails_.clear();
    prev_.assign(pairs_.size(), -1);
    for (int k = 0; k < static_cast<int>(pairs_.size()); ++k) {
      auto it = std::lower_bound(tails_.begin(), tails_.end(), pairs_[k].first,
                                 [&](int t, int x) { return pairs_[t].first < x; });
      if (it != tails_.begin()) prev_[k] = *(it - 1);
      if (it == tails_.end()) tails_.push_back(k);
      else *it = k;
    }
    work_ += static_cast<long long>(pairs_.size());
    // Walk the chain back to front, queueing the gaps; push order doesn't
    // matter for correctness since regions are independent.
    int ea = r.a1, eb = r.b1;
    for (int k = tails_.back(); k >= 0; k = prev_[k]) {
      auto [i, j] = pairs_[k];
      todo_.push_back({i + 1, ea, j + 1, eb});
      ea = i, eb = j;
    }
    todo_.push_back({r.a0, ea, r.b0, eb});
    return true;
  }

  // Histogram step: the rarest common line (by a-side count), extended to the
  // longest equal run around each of its occurrences.
  bool anchor_rarest(const Region &r) {
    std::uint32_t best_cnt = kMaxChain + 1;
    for (int j = r.b0; j < r.b1; ++j) {
      std::uint32_t c = cnt_a_[b_[j]];
      if (c && c < best_cnt) best_cnt = c;
    }
    if (best_cnt > kMaxChain) return false;
    int bi = -1, bj = -1, blen = 0;
    for (int j = r.b0; j < r.b1; ++j) {
      if (cnt_a_[b_[j]] != best_cnt) continue;
      int jend = j + 1;
      for (int i = head_a_[b_[j]]; i >= 0; i = next_a_[i]) {
        int s = 0;
        while (i - s > r.a0 && j - s > r.b0 && a_[i - s - 1] == b_[j - s - 1]) ++s;
        int e = 1;
        while (i + e < r.a1 && j + e < r.b1 && a_[i + e] == b_[j + e]) ++e;
        work_ += s + e;
        if (s + e > blen) blen = s + e, bi = i - s, bj = j - s;
        jend = std::max(jend, j + e);
      }
      j = jend - 1;  // lines inside a run already tried are not new anchors
      if (work_ > budget_) break;
    }
    todo_.push_back({bi + blen, r.a1, bj + blen, r.b1});
    todo_.push_back({r.a0, bi, r.b0, bj});
    return true;
  }

  Seq a_, b_;
  Marks &m_;
  std::vector<std::uint32_t> cnt_a_, cnt_b_;
  std::vector<int> head_a_, next_a_;
  MyersRegion fallback_;
  std::vector<Region> todo_;
  std::vector<std::pair<int, int>> pairs_;
  std::vector<int> tails_, prev_;
  long long work_ = 0, budget_ = 0;
};

}  // namespace

Marks histogram(Seq a, Seq b, Id alphabet) {
  Marks m;
  m.a.assign(a.size(), 0);
  m.b.assign(b.size(), 0);
  Histogram h(a, b, alphabet, m);
  h.run();
  return m;
}

}  // namespace lowertrace::diff::detail
