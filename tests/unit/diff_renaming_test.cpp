// SSA renumbering is noise only when one consistent renaming of the whole
// snapshot explains it: examples from real passes, then properties over
// random programs (a pure renaming is all noise; a rewired or swapped use on
// top of it is a real change, and nothing else is).
#include "lowertrace/diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace lowertrace::diff {
namespace {

TEST(DiffRenaming, SwappedUsesAreReal) {
  // No value is renamed: %0 and %1 trade places as operands of two ops.
  std::string before =
      "func.func @f(%arg0: i32, %arg1: i32) -> i32 {\n"
      "  %0 = arith.addi %arg0, %arg1 : i32\n"
      "  %1 = arith.muli %arg0, %arg1 : i32\n"
      "  %2 = arith.subi %0, %arg0 : i32\n"
      "  %3 = arith.xori %1, %arg1 : i32\n"
      "  return %3 : i32\n"
      "}\n";
  std::string after =
      "func.func @f(%arg0: i32, %arg1: i32) -> i32 {\n"
      "  %0 = arith.addi %arg0, %arg1 : i32\n"
      "  %1 = arith.muli %arg0, %arg1 : i32\n"
      "  %2 = arith.subi %1, %arg0 : i32\n"
      "  %3 = arith.xori %0, %arg1 : i32\n"
      "  return %3 : i32\n"
      "}\n";
  EXPECT_TRUE(equal_modulo_ssa("  %2 = arith.subi %0, %arg0 : i32", "  %2 = arith.subi %1, %arg0 : i32"));
  ChangeSummary c = classify(before, after);
  EXPECT_EQ(c.stats.del_lines, 2);
  EXPECT_EQ(c.renumbered, 0);
}

TEST(DiffRenaming, CanonicalizeFoldIsReal) {
  // The fold rewires the add to a new constant; the shifted names are not
  // what makes the line differ.
  std::string before =
      "func.func @f(%arg0: i32) -> i32 {\n"
      "  %c1_i32 = arith.constant 1 : i32\n"
      "  %c2_i32 = arith.constant 2 : i32\n"
      "  %0 = arith.addi %c1_i32, %c2_i32 : i32\n"
      "  %1 = arith.addi %arg0, %0 : i32\n"
      "  return %1 : i32\n"
      "}\n";
  std::string after =
      "func.func @f(%arg0: i32) -> i32 {\n"
      "  %c3_i32 = arith.constant 3 : i32\n"
      "  %0 = arith.addi %arg0, %c3_i32 : i32\n"
      "  return %0 : i32\n"
      "}\n";
  EXPECT_TRUE(equal_modulo_ssa("  %1 = arith.addi %arg0, %0 : i32", "  %0 = arith.addi %arg0, %c3_i32 : i32"));
  ChangeSummary c = classify(before, after);
  // Paired: the two adds (real: %0 became a new constant) and the returns
  // (noise: `return %1` -> `return %0` returns the same, renamed add).
  EXPECT_EQ(c.paired, 2);
  EXPECT_EQ(c.renumbered, 1);
}

TEST(DiffRenaming, CseRewiredUseIsReal) {
  // EarlyCSE: the second load is gone and its use now reads the first one.
  std::string before =
      "define i32 @f(ptr %p) {\n"
      "  %1 = load i32, ptr %p, align 4\n"
      "  %2 = load i32, ptr %p, align 4\n"
      "  %3 = add i32 %1, 1\n"
      "  %4 = mul i32 %2, %3\n"
      "  ret i32 %4\n"
      "}\n";
  std::string after =
      "define i32 @f(ptr %p) {\n"
      "  %1 = load i32, ptr %p, align 4\n"
      "  %2 = add i32 %1, 1\n"
      "  %3 = mul i32 %1, %2\n"
      "  ret i32 %3\n"
      "}\n";
  ChangeSummary c = classify(before, after);
  // `%3 = add` -> `%2 = add` and `ret %4` -> `ret %3` (the same mul, renamed)
  // are renumbering; the mul reads %1 instead of the second load: real.
  EXPECT_EQ(c.paired, 3);
  EXPECT_EQ(c.renumbered, 2);
  EXPECT_TRUE(equal_modulo_ssa("  %4 = mul i32 %2, %3", "  %3 = mul i32 %1, %2"));
}

TEST(DiffRenaming, NamesArePerFunction) {
  // @g is untouched; @f loses its first op, so its later values shift. The
  // same names in @g must not pin @f's renaming.
  std::string g =
      "func.func @g(%arg0: i32) -> i32 {\n"
      "  %0 = arith.muli %arg0, %arg0 : i32\n"
      "  %1 = arith.addi %0, %arg0 : i32\n"
      "  return %1 : i32\n"
      "}\n";
  std::string before = g +
                       "func.func @f(%arg0: i32) -> i32 {\n"
                       "  %0 = arith.constant 7 : i32\n"
                       "  %1 = arith.muli %arg0, %arg0 : i32\n"
                       "  %2 = arith.subi %1, %arg0 : i32\n"
                       "  return %2 : i32\n"
                       "}\n";
  std::string after = g +
                      "func.func @f(%arg0: i32) -> i32 {\n"
                      "  %0 = arith.muli %arg0, %arg0 : i32\n"
                      "  %1 = arith.subi %0, %arg0 : i32\n"
                      "  return %1 : i32\n"
                      "}\n";
  ChangeSummary c = classify(before, after);
  EXPECT_EQ(c.stats.del_lines, 4);
  EXPECT_EQ(c.renumbered, 3);
}

// ---------- properties over random programs ----------

struct Program {
  // Per function: the ops, each as (opcode, operand value ids); value ids
  // count arguments first (0, 1), then op results.
  struct Op {
    int opcode;
    std::vector<int> uses;
    int loc;
  };
  std::vector<std::vector<Op>> funcs;
  int locs = 0;
};

const char *kOpcodes[] = {"arith.addi", "arith.muli", "arith.subi", "arith.xori", "arith.ori"};
constexpr int kArgs = 2;

Program random_program(std::mt19937 &rng) {
  Program p;
  int nf = 1 + static_cast<int>(rng() % 3);
  for (int f = 0; f < nf; ++f) {
    int n = 2 + static_cast<int>(rng() % 12);
    std::vector<Program::Op> ops;
    for (int k = 0; k < n; ++k) {
      int avail = kArgs + k;
      Program::Op op{static_cast<int>(rng() % 5), {}, p.locs++};
      for (int u = 0; u < 2; ++u) op.uses.push_back(static_cast<int>(rng() % avail));
      ops.push_back(op);
    }
    p.funcs.push_back(std::move(ops));
  }
  return p;
}

// Prints a program. `names[f][v]` names value v of function f; `loc_names[l]`
// names location alias l. Locations print as aliases, defined at the end.
std::string print(const Program &p, const std::vector<std::vector<std::string>> &names,
                  const std::vector<int> &loc_names) {
  std::string out;
  for (std::size_t f = 0; f < p.funcs.size(); ++f) {
    const auto &nm = names[f];
    out += "func.func @f" + std::to_string(f) + "(%" + nm[0] + ": i32, %" + nm[1] + ": i32) -> i32 {\n";
    for (std::size_t k = 0; k < p.funcs[f].size(); ++k) {
      const auto &op = p.funcs[f][k];
      out += "  %" + nm[kArgs + k] + " = " + kOpcodes[op.opcode] + " %" + nm[op.uses[0]] + ", %" +
             nm[op.uses[1]] + " : i32 loc(#loc" + std::to_string(loc_names[op.loc]) + ")\n";
    }
    out += "  return %" + nm[kArgs + p.funcs[f].size() - 1] + " : i32\n}\n";
  }
  for (int l = 0; l < static_cast<int>(loc_names.size()); ++l)
    out += "#loc" + std::to_string(loc_names[l]) + " = loc(\"k.py\":" + std::to_string(l + 1) + ":0)\n";
  return out;
}

// The printer's names: %arg0 %arg1, then %0 %1 ... in order; #loc0...
std::vector<std::vector<std::string>> printer_names(const Program &p) {
  std::vector<std::vector<std::string>> names;
  for (const auto &ops : p.funcs) {
    std::vector<std::string> nm{"arg0", "arg1"};
    for (std::size_t k = 0; k < ops.size(); ++k) nm.push_back(std::to_string(k));
    names.push_back(nm);
  }
  return names;
}

// A random bijection onto names the printer never uses (so that no renamed
// line equals an original one): every value, per function, and every alias.
std::vector<std::vector<std::string>> renamed(const Program &p, std::mt19937 &rng) {
  std::vector<std::vector<std::string>> names;
  for (const auto &ops : p.funcs) {
    std::vector<int> perm(kArgs + ops.size());
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    std::vector<std::string> nm;
    for (int v : perm) nm.push_back("v" + std::to_string(v));
    names.push_back(nm);
  }
  return names;
}

std::vector<int> identity_locs(const Program &p) {
  std::vector<int> l(p.locs);
  std::iota(l.begin(), l.end(), 0);
  return l;
}
std::vector<int> shuffled_locs(const Program &p, std::mt19937 &rng) {
  std::vector<int> l = identity_locs(p);
  std::shuffle(l.begin(), l.end(), rng);
  for (int &x : l) x += 100;  // disjoint from the original numbers
  return l;
}

TEST(DiffRenamingProperty, ConsistentRenamingOfTheWholeSnapshotIsNoise) {
  std::mt19937 rng(20261203);
  for (int iter = 0; iter < 300; ++iter) {
    Program p = random_program(rng);
    std::string before = print(p, printer_names(p), identity_locs(p));
    std::string after = print(p, renamed(p, rng), shuffled_locs(p, rng));
    ChangeSummary c = classify(before, after);
    ASSERT_GT(c.stats.del_lines, 0);
    // Every changed line is its own old version, renamed.
    ASSERT_EQ(c.renumbered, c.stats.del_lines) << before << "---\n" << after;
    ASSERT_EQ(c.renumbered, c.stats.add_lines);
  }
}

TEST(DiffRenamingProperty, RewiredUseIsTheOnlyRealChange) {
  std::mt19937 rng(7);
  int tried = 0;
  for (int iter = 0; iter < 300; ++iter) {
    Program p = random_program(rng);
    std::string before = print(p, printer_names(p), identity_locs(p));
    // Rewire one use to a different value available at that point.
    Program q = p;
    auto &ops = q.funcs[rng() % q.funcs.size()];
    std::size_t k = rng() % ops.size();
    int avail = kArgs + static_cast<int>(k);
    int &use = ops[k].uses[rng() % 2];
    int old = use;
    use = static_cast<int>(rng() % avail);
    if (use == old) continue;
    ++tried;
    std::string after = print(q, renamed(q, rng), shuffled_locs(q, rng));
    ChangeSummary c = classify(before, after);
    ASSERT_EQ(c.renumbered, c.stats.del_lines - 1) << before << "---\n" << after;
  }
  EXPECT_GT(tried, 100);
}

TEST(DiffRenamingProperty, SwappedUsesAreTheOnlyRealChanges) {
  std::mt19937 rng(11);
  int tried = 0;
  for (int iter = 0; iter < 300; ++iter) {
    Program p = random_program(rng);
    auto &ops = p.funcs[0];
    if (ops.size() < 3) continue;
    // Two ops whose first operands differ and are defined before both.
    std::size_t x = 1 + rng() % (ops.size() - 1), y = 1 + rng() % (ops.size() - 1);
    if (x == y) continue;
    Program q = p;
    int &ux = q.funcs[0][x].uses[0], &uy = q.funcs[0][y].uses[0];
    if (ux == uy || ux >= kArgs + static_cast<int>(std::min(x, y)) ||
        uy >= kArgs + static_cast<int>(std::min(x, y)))
      continue;
    // Keep each line's shape (a swap that makes `%a, %a` is a different test).
    if (uy == q.funcs[0][x].uses[1] || ux == q.funcs[0][y].uses[1] || ux == q.funcs[0][x].uses[1] ||
        uy == q.funcs[0][y].uses[1])
      continue;
    std::swap(ux, uy);
    ++tried;
    // Names as printed, no renaming at all: the uses moved, nothing else.
    std::string before = print(p, printer_names(p), identity_locs(p));
    std::string after = print(q, printer_names(q), identity_locs(q));
    ChangeSummary c = classify(before, after);
    ASSERT_EQ(c.stats.del_lines, 2);
    ASSERT_EQ(c.renumbered, 0) << before << "---\n" << after;
    // The same swap under a renaming of the whole snapshot.
    after = print(q, renamed(q, rng), shuffled_locs(q, rng));
    c = classify(before, after);
    ASSERT_EQ(c.renumbered, c.stats.del_lines - 2) << before << "---\n" << after;
  }
  EXPECT_GT(tried, 30);
}

}  // namespace
}  // namespace lowertrace::diff
