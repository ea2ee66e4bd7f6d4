// Helpers for the diff tests: a reference O(n*m) LCS and script checks.
#pragma once

#include "lowertrace/diff.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace lowertrace::diff::testing {

// Textbook dynamic-programming LCS length; the reference every fast path is
// measured against.
template <class T>
int reference_lcs(const std::vector<T> &a, const std::vector<T> &b) {
  std::vector<int> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// Checks that ops tile both inputs in order, that Equal runs really are equal,
// and that applying the script to a yields b. Returns the number of equal lines.
template <class T>
int check_script(const std::vector<T> &a, const std::vector<T> &b, const std::vector<Op> &ops) {
  std::uint32_t i = 0, j = 0;
  int equal = 0;
  std::vector<T> rebuilt;
  for (const Op &op : ops) {
    EXPECT_EQ(op.a_pos, i);
    EXPECT_EQ(op.b_pos, j);
    switch (op.kind) {
      case Op::Equal:
        EXPECT_EQ(op.a_len, op.b_len);
        EXPECT_GT(op.a_len, 0u);
        for (std::uint32_t t = 0; t < op.a_len; ++t) {
          EXPECT_EQ(a[i + t], b[j + t]);
          rebuilt.push_back(a[i + t]);
        }
        equal += static_cast<int>(op.a_len);
        break;
      case Op::Delete:
        EXPECT_EQ(op.b_len, 0u);
        EXPECT_GT(op.a_len, 0u);
        break;
      case Op::Insert:
        EXPECT_EQ(op.a_len, 0u);
        EXPECT_GT(op.b_len, 0u);
        for (std::uint32_t t = 0; t < op.b_len; ++t) rebuilt.push_back(b[j + t]);
        break;
    }
    i += op.a_len;
    j += op.b_len;
  }
  EXPECT_EQ(i, a.size());
  EXPECT_EQ(j, b.size());
  EXPECT_EQ(rebuilt, b);
  return equal;
}

// Random lines over a small alphabet ("x0".."x{k-1}"), so lines repeat a lot.
inline std::vector<std::string> random_lines(std::mt19937 &rng, int max_len, int alphabet) {
  std::uniform_int_distribution<int> len(0, max_len), sym(0, alphabet - 1);
  std::vector<std::string> out(len(rng));
  for (auto &s : out) s = "x" + std::to_string(sym(rng));
  return out;
}

inline std::vector<std::string_view> views(const std::vector<std::string> &v) {
  return {v.begin(), v.end()};
}

inline std::string join(const std::vector<std::string> &v, bool final_newline = true) {
  std::string s;
  for (std::size_t k = 0; k < v.size(); ++k) {
    s += v[k];
    if (k + 1 < v.size() || final_newline) s += '\n';
  }
  return s;
}

}  // namespace lowertrace::diff::testing
