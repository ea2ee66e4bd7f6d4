// The live stderr splitter of `lowertrace run`: what the user sees is exactly
// the tool's own lines, and no tool line ends up in a dump's IR.
#include "capture/dump/stderr_splitter.h"

#include <gtest/gtest.h>

#include <string>

using lowertrace::dump::StderrSplitter;

namespace {

struct Split {
  std::string tool, dump;
};

// Feeds `in` in chunks of `chunk` bytes (lines cut anywhere).
Split split(const std::string &in, std::size_t chunk = 7, bool chatter = false) {
  Split s;
  StderrSplitter sp([&](std::string_view b) { s.tool.append(b); }, [&](std::string_view b) { s.dump.append(b); },
                    chatter);
  for (std::size_t i = 0; i < in.size(); i += chunk) sp.feed(std::string_view(in).substr(i, chunk));
  sp.finish();
  return s;
}

const std::string kMlirBefore =
    "// -----// IR Dump Before Canonicalizer (canonicalize) //----- //\n"
    "func.func @f(%arg0: i32) -> i32 {\n"
    "  %c0_i32 = arith.constant 0 : i32\n"
    "  %0 = arith.addi %arg0, %c0_i32 : i32\n"
    "  return %0 : i32\n"
    "}\n"
    "\n";
const std::string kMlirAfter =
    "// -----// IR Dump After Canonicalizer (canonicalize) //----- //\n"
    "func.func @f(%arg0: i32) -> i32 {\n"
    "  return %arg0 : i32\n"
    "}\n"
    "\n";

}  // namespace

TEST(StderrSplitter, MlirTimingReportAfterTheLastDumpIsTheTools) {
  std::string timing =
      "===-------------------------------------------------------------------------===\n"
      "                         ... Execution time report ...\n"
      "===-------------------------------------------------------------------------===\n"
      "  Total Execution Time: 0.0012 seconds\n"
      "\n"
      "  ----Wall Time----  ----Name----\n"
      "    0.0003 ( 25.0%)  Parser\n"
      "    0.0012 (100.0%)  Total\n";
  Split s = split(kMlirBefore + kMlirAfter + timing);
  EXPECT_EQ(s.tool, timing);
  EXPECT_EQ(s.dump, kMlirBefore + kMlirAfter);
}

TEST(StderrSplitter, MlirDiagnosticWithSourceLineAndCaretStaysWhole) {
  std::string diag =
      "in.mlir:3:8: error: 'arith.addi' op requires the same type for all operands\n"
      "  %x = arith.addi %a, %c0 : i64\n"
      "       ^\n";
  std::string failed =
      "// -----// IR Dump After (anonymous namespace)::TestFailurePass Failed (test-pass-failure) //----- //\n"
      "func.func @f(%arg0: i32) -> i32 {\n"
      "  return %arg0 : i32\n"
      "}\n"
      "\n";
  Split s = split(kMlirBefore + diag + failed + "trailing tool line\n");
  EXPECT_EQ(s.tool, diag + "trailing tool line\n");
  // The diagnostic is copied to the dump side, for the importer to attach.
  EXPECT_EQ(s.dump, kMlirBefore + diag + failed);
}

TEST(StderrSplitter, MlirResourcesAndDeferredLocationAliasesBelongToTheDump) {
  std::string d =
      "// -----// IR Dump After CSE (cse) //----- //\n"
      "module {\n"
      "  func.func @f() -> tensor<2xi8> {\n"
      "    %0 = arith.constant dense_resource<blob> : tensor<2xi8> loc(#loc1)\n"
      "    return %0 : tensor<2xi8> loc(#loc1)\n"
      "  } loc(#loc)\n"
      "} loc(#loc)\n"
      "#loc = loc(\"in.mlir\":1:1)\n"
      "#loc1 = loc(\"in.mlir\":2:3)\n"
      "\n"
      "{-#\n"
      "  dialect_resources: {\n"
      "    builtin: {\n"
      "      blob: \"0x010000000102\"\n"
      "    }\n"
      "  }\n"
      "#-}\n"
      "\n";
  Split s = split(d + "Pass statistics report\n");
  EXPECT_EQ(s.dump, d);
  EXPECT_EQ(s.tool, "Pass statistics report\n");
}

TEST(StderrSplitter, MirDumpRunsToItsEndLineWhateverItsLinesLookLike) {
  std::string mir =
      "# *** IR Dump After Prologue/Epilogue Insertion & Frame Finalization (prologepilog) ***:\n"
      "# Machine code for function sum: NoPHIs, TracksLiveness, NoVRegs\n"
      "Frame Objects:\n"
      "  fi#-1: size=8, align=16, fixed, at location [SP-8]\n"
      "save/restore points:\n"
      "save points:\n"
      "- point: %bb.0\n"
      "restore points:\n"
      "- point: %bb.2\n"
      "\n"
      "bb.0.entry:\n"
      "  RET64 $eax\n"
      "\n"
      "# End machine code for function sum.\n"
      "\n";
  Split s = split(mir + "1 warning generated.\n");
  EXPECT_EQ(s.dump, mir);
  EXPECT_EQ(s.tool, "1 warning generated.\n");
}

TEST(StderrSplitter, LlvmFunctionDumpEndsAtItsClosingBrace) {
  std::string ir =
      "; *** IR Dump After InstCombinePass on g ***\n"
      "; Function Attrs: nounwind\n"
      "define i32 @g(i32 %x) #0 {\n"
      "entry:\n"
      "  ret i32 %x\n"
      "\n"
      "exit:                                             ; preds = %entry\n"
      "  ret i32 0\n"
      "}\n";
  std::string tool = "b.c:2:1: warning: unused variable 'y'\n    2 | int y;\n\n1 warning generated.\n";
  Split s = split(ir + tool);
  EXPECT_EQ(s.tool, tool);
  // The diagnostic and its context up to the empty line are copied for the importer.
  EXPECT_EQ(s.dump, ir + "b.c:2:1: warning: unused variable 'y'\n    2 | int y;\n");
}

TEST(StderrSplitter, ToolLinesBetweenDumpsStayInOrder) {
  Split s = split("first\n" + kMlirBefore + "between\n" + kMlirAfter + "last");
  EXPECT_EQ(s.tool, "first\nbetween\nlast");  // the missing last newline stays missing
  EXPECT_EQ(s.dump, kMlirBefore + kMlirAfter);
}

TEST(StderrSplitter, PassManagerChatterIsDroppedOnlyWhenAsked) {
  std::string c = "Running pass: InstCombinePass on f (3 instructions)\n";
  EXPECT_EQ(split(c, 5, true).tool, "");
  EXPECT_EQ(split(c, 5, false).tool, c);
}

TEST(StderrSplitter, BlankLinesOfTheToolAfterADumpAreTheTools) {
  // The printer ends an MLIR dump with exactly one empty line; more are the tool's.
  Split s = split(kMlirAfter + "\n\nsummary\n", 1);
  EXPECT_EQ(s.dump, kMlirAfter);
  EXPECT_EQ(s.tool, "\n\nsummary\n");
}

TEST(StderrSplitter, ModuleDumpEndsWithTwoEmptyLinesAndAThirdIsTheTools) {
  std::string d =
      "// -----// IR Dump Before Canonicalizer (canonicalize) //----- //\n"
      "module {\n"
      "  func.func @f() {\n"
      "    return\n"
      "  }\n"
      "}\n"
      "\n"
      "\n";
  Split s = split(d + "\n// ---- CallGraph ----\n", 3);
  EXPECT_EQ(s.dump, d);
  EXPECT_EQ(s.tool, "\n// ---- CallGraph ----\n");
}
