// diff/myers.h - the cost-bounded Myers fallback, usable on a sub-region so the
// histogram diff can hand it the regions where no good anchor exists.
#pragma once

#include "core.h"

namespace lowertrace::diff::detail {

class MyersRegion {
 public:
  // `alphabet` sizes the per-id scratch counters (kept zeroed between calls).
  MyersRegion(Seq a, Seq b, Id alphabet, Marks &m, bool exact);
  // Diffs a[a0,a1) against b[b0,b1) and sets the marks of that region.
  void run(int a0, int a1, int b0, int b1);

 private:
  std::pair<int, int> split(int a0, int a1, int b0, int b1);
  void solve(int a0, int a1, int b0, int b1);

  Seq a_, b_;
  Marks &m_;
  bool exact_;
  std::vector<std::uint32_t> cnt_a_, cnt_b_;  // scratch, indexed by id
  // The current region with lines absent from the other side removed:
  // ids and their original indices.
  std::vector<Id> ra_, rb_;
  std::vector<int> ia_, ib_;
  std::vector<int> kf_, kb_;  // furthest-reaching x per diagonal
  int max_cost_ = 0;
};

}  // namespace lowertrace::diff::detail
