// Fuzz-style: truncated, garbled and interleaved inputs never crash, give a
// warning with a byte offset, and keep every dump that parses.
#include "capture/dump/banner.h"
#include "dump_recording.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>

using namespace lowertrace::dump;
using namespace lowertrace::dump::testing;

namespace {

std::string add_fixture() {
  std::string p = fixtures_dir() + "/triton-3.6/mlir_dump_add.txt";
  EXPECT_TRUE(std::filesystem::exists(p)) << "missing fixture " << p;
  return read_all(p);
}

std::size_t count(const std::string &s, const std::string &needle) {
  std::size_t n = 0;
  for (std::size_t p = s.find(needle); p != std::string::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

std::size_t total_records(const Imported &im) {
  std::size_t n = 0;
  for (const auto &t : im.targets) n += t->recs.size();
  return n;
}

TEST(DumpRobustness, TruncatedAnywhereKeepsEveryBannerSeen) {
  std::string text = add_fixture();
  ASSERT_FALSE(text.empty()) << "missing or empty fixture";
  std::mt19937 rng(42);
  for (int i = 0; i < 40; ++i) {
    std::size_t cut = std::uniform_int_distribution<std::size_t>(1, text.size() - 1)(rng);
    std::string part = text.substr(0, cut);
    Imported im = import_text(part, Format::Auto, 1 + cut % 5000);
    // Banners on complete lines, plus a last line that is still a whole banner.
    std::string whole = part.substr(0, part.rfind('\n') + 1);
    std::size_t banners = count(whole, "// -----// IR Dump Before ") + count(whole, "internal IR Dump After: ") +
                          (parse_banner(part.substr(whole.size())) ? 1 : 0);
    EXPECT_EQ(total_records(im), banners) << "cut at " << cut;
    if (part.back() != '\n') {
      ASSERT_FALSE(im.result.warnings.empty()) << "cut at " << cut;
      EXPECT_NE(im.result.warnings[0].find("byte " + std::to_string(cut)), std::string::npos)
          << im.result.warnings[0];
    }
  }
}

TEST(DumpRobustness, TruncatedPairedStreamFailsTheOpenPass) {
  std::string t =
      "; *** IR Dump Before SROAPass on f ***\ndefine void @f() {\n  ret void\n}\n"
      "; *** IR Dump After SROAPass on f ***\ndefine void @f() {\n  ret void\n}\n"
      "; *** IR Dump Before GVNPass on f ***\ndefine void @f() {\n  ret";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].status, "completed");
  EXPECT_EQ(r[1].name, "GVNPass");
  EXPECT_EQ(r[1].status, "failed");
  ASSERT_GE(im.result.warnings.size(), 1u);
  bool offset = false;
  for (const auto &w : im.result.warnings) offset |= w.find("byte ") != std::string::npos;
  EXPECT_TRUE(offset);
}

TEST(DumpRobustness, GarbageBetweenDumpsIsReportedWithOffsetAndSkipped) {
  std::string a = "// -----// IR Dump Before CSE (cse) //----- //\nfunc.func @f() {\n  return\n}\n\n";
  std::string b = "// -----// IR Dump After CSE (cse) //----- //\nfunc.func @f() {\n  return\n}\n\n";
  // Garbage after a blank-line-terminated dump still reads as body text, so put
  // it before the first banner, where nothing can own it.
  std::string garbage = "Traceback (most recent call last):\n  File \"x.py\"\n";
  Imported im = import_text(garbage + a + b);
  ASSERT_EQ(im.recs().size(), 1u);
  ASSERT_EQ(im.result.warnings.size(), 1u);
  EXPECT_NE(im.result.warnings[0].find("at byte 0"), std::string::npos);
  EXPECT_NE(im.result.warnings[0].find("Traceback"), std::string::npos);
}

TEST(DumpRobustness, InterleavedProcessesAreFlaggedNotFatal) {
  // Two writers: the second banner lands inside the first dump's body.
  std::string t =
      "// -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //\nmodule {\n  func.func @f() {\n"
      "// -----// IR Dump Before CSE (cse) ('builtin.module' operation) //----- //\nmodule {\n  func.func @g() {\n    return\n  }\n}\n\n\n"
      "    return\n  }\n}\n\n\n";
  Imported im = import_text(t);
  EXPECT_EQ(total_records(im), 2u);
  bool flagged = false;
  for (const auto &w : im.result.warnings) flagged |= w.find("unbalanced braces") != std::string::npos;
  EXPECT_TRUE(flagged);
}

TEST(DumpRobustness, RandomByteGarblingNeverThrows) {
  std::string text = add_fixture();
  ASSERT_FALSE(text.empty()) << "missing or empty fixture";
  text.resize(std::min<std::size_t>(text.size(), 60000));
  std::mt19937 rng(7);
  for (int round = 0; round < 20; ++round) {
    std::string g = text;
    for (int k = 0; k < 200; ++k) {
      std::size_t p = std::uniform_int_distribution<std::size_t>(0, g.size() - 1)(rng);
      g[p] = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    }
    // Also drop a random slice, as a lost buffer would.
    std::size_t p = std::uniform_int_distribution<std::size_t>(0, g.size() - 2000)(rng);
    g.erase(p, 1000);
    EXPECT_NO_THROW({
      Imported im = import_text(g, Format::Auto, 1 + round * 97);
      for (const auto &t : im.targets) EXPECT_TRUE(t->stack.empty());
    });
  }
}

TEST(DumpRobustness, EmptyAndBannerOnlyInputs) {
  EXPECT_EQ(total_records(import_text("")), 0u);
  Imported im = import_text("; *** IR Dump After SROAPass on f ***");
  EXPECT_EQ(total_records(im), 1u);
  EXPECT_FALSE(im.result.warnings.empty());  // cut mid-line
}

}  // namespace

// A raw stderr capture of clang -mllvm -print-after-all: the compiler's own
// last line follows the last machine function, and is not part of its text.
TEST(DumpRobustness, MachineFunctionEndsAtItsEndLine) {
  std::string t =
      "# *** IR Dump After Prologue/Epilogue Insertion & Frame Finalization (prologepilog) ***:\n"
      "# Machine code for function sum: NoPHIs, TracksLiveness, NoVRegs\n"
      "save/restore points:\n"
      "save points:\n"
      "- point: %bb.0\n\n"
      "bb.0.entry:\n  RET64 $eax\n\n"
      "# End machine code for function sum.\n\n"
      "1 warning generated.\n";
  Imported im = import_text(t);
  ASSERT_EQ(total_records(im), 1u);
  const auto &r = im.recs();
  EXPECT_NE(r[0].after.find("save/restore points:"), std::string::npos);
  EXPECT_TRUE(r[0].after.ends_with("# End machine code for function sum.\n")) << r[0].after;
  EXPECT_EQ(r[0].after.find("warning generated"), std::string::npos);
}

// A raw stderr capture of mlir-opt --mlir-print-ir-after-all --mlir-timing:
// the timing report after the last dump is the tool's, not that pass's IR;
// a resource section after the op's empty line is the dump's.
TEST(DumpRobustness, MlirDumpEndsAfterItsOpAndEmptyLine) {
  std::string t =
      "// -----// IR Dump After Canonicalizer (canonicalize) //----- //\n"
      "module {\n  func.func @f() {\n    return\n  }\n}\n\n\n"
      "{-#\n  dialect_resources: {\n    builtin: {\n      blob: \"0x0100\"\n    }\n  }\n#-}\n\n"
      "// -----// IR Dump After CSE (cse) //----- //\n"
      "module {\n  func.func @f() {\n    return\n  }\n}\n\n\n"
      "===-------------------------------------------------------------------------===\n"
      "                         ... Execution time report ...\n"
      "  Total Execution Time: 0.0012 seconds\n";
  Imported im = import_text(t);
  ASSERT_EQ(total_records(im), 2u);
  const auto &r = im.recs();
  EXPECT_NE(r[0].after.find("dialect_resources"), std::string::npos) << r[0].after;
  EXPECT_EQ(r[1].after.find("Execution time"), std::string::npos) << r[1].after;
  EXPECT_TRUE(r[1].after.ends_with("}\n")) << r[1].after;
}
