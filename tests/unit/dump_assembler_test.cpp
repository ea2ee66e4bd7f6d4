// Stitching rules on small inputs in the exact shapes LLVM/MLIR 22 print.
#include "dump_recording.h"

#include <gtest/gtest.h>

using namespace lowertrace::dump;
using namespace lowertrace::dump::testing;

namespace {

const char *kMlirPaired = R"(// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
func.func @f(%arg0: i32) -> i32 {
  %c0_i32 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %c0_i32 : i32
  return %0 : i32
}

// -----// IR Dump After Canonicalizer (canonicalize) //----- //
func.func @f(%arg0: i32) -> i32 {
  return %arg0 : i32
}

// -----// IR Dump Before Canonicalizer (canonicalize) //----- //
func.func @g(%arg0: i32) -> i32 {
  return %arg0 : i32
}

// -----// IR Dump After Canonicalizer (canonicalize) //----- //
func.func @g(%arg0: i32) -> i32 {
  return %arg0 : i32
}

// -----// IR Dump Before SymbolDCE (symbol-dce) //----- //
module {
  func.func @f(%arg0: i32) -> i32 {
    return %arg0 : i32
  }
}


// -----// IR Dump After SymbolDCE (symbol-dce) //----- //
module {
}


)";

TEST(DumpAssembler, MlirPairedLocalAndModule) {
  Imported im = import_text(kMlirPaired, Format::Auto, 7);  // tiny chunks: lines split across feeds
  EXPECT_EQ(im.result.detected, Format::Mlir);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].name, "canonicalize");
  EXPECT_EQ(r[0].anchor, "func.func @f");
  EXPECT_EQ(r[0].detail, "Canonicalizer");
  EXPECT_EQ(r[0].after, "func.func @f(%arg0: i32) -> i32 {\n  return %arg0 : i32\n}\n");
  EXPECT_EQ(r[1].anchor, "func.func @g");
  EXPECT_EQ(r[2].name, "symbol-dce");
  EXPECT_EQ(r[2].anchor, "builtin.module");
  EXPECT_EQ(r[2].after, "module {\n}\n");
  for (const auto &x : r) {
    EXPECT_EQ(x.status, "completed");
    EXPECT_EQ(x.depth, 0);
    EXPECT_EQ(x.phase, "mlir");
  }
  EXPECT_TRUE(im.result.warnings.empty());
}

TEST(DumpAssembler, MlirThreadedInterleavingKeepsPairsApart) {
  // Multi-threaded runs interleave sibling functions' dumps.
  std::string t =
      "// -----// IR Dump Before CSE (cse) //----- //\nfunc.func @f() {\n  return\n}\n\n"
      "// -----// IR Dump Before CSE (cse) //----- //\nfunc.func @g() {\n  %0 = x\n  return\n}\n\n"
      "// -----// IR Dump After CSE (cse) //----- //\nfunc.func @g() {\n  return\n}\n\n"
      "// -----// IR Dump After CSE (cse) //----- //\nfunc.func @f() {\n  return\n}\n\n";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].anchor, "func.func @f");  // banner order of the Before dumps
  EXPECT_EQ(r[1].anchor, "func.func @g");
  EXPECT_EQ(r[1].before, "func.func @g() {\n  %0 = x\n  return\n}\n");
  EXPECT_EQ(r[1].after, "func.func @g() {\n  return\n}\n");
  EXPECT_EQ(r[0].depth, 0);
  EXPECT_EQ(r[1].depth, 0);
}

TEST(DumpAssembler, MlirFailedPassCarriesDiagnostic) {
  std::string t =
      "// -----// IR Dump Before OneShotBufferizePass (one-shot-bufferize) ('builtin.module' operation) //----- //\n"
      "module {\n}\n\n\n"
      "x.mlir:2:8: error: op was not bufferized\n"
      "  %0 = \"unknown.op\"(%t)\n"
      "// -----// IR Dump After OneShotBufferizePass Failed (one-shot-bufferize) ('builtin.module' operation) //----- //\n"
      "module {\n  %1 = \"unknown.op\"\n}\n\n\n";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "failed");
  EXPECT_NE(r[0].error.find("op was not bufferized"), std::string::npos);
  EXPECT_TRUE(im.result.warnings.empty()) << im.result.warnings[0];
}

TEST(DumpAssembler, MlirAfterOnlyChainsPerUnit) {
  std::string t =
      "// -----// IR Dump After Canonicalizer (canonicalize) //----- //\nfunc.func @f() {\n  a\n}\n\n"
      "// -----// IR Dump After CSE (cse) //----- //\nfunc.func @f() {\n  b\n}\n\n";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].before, "");
  EXPECT_NE(r[0].detail.find("before-text not in the dump"), std::string::npos);
  EXPECT_EQ(r[1].before, "func.func @f() {\n  a\n}\n");
  EXPECT_EQ(r[1].after, "func.func @f() {\n  b\n}\n");
}

TEST(DumpAssembler, MlirBeforeOnlyLocalScopeUsesModuleForLastFunctionPass) {
  // --mlir-print-ir-before-all alone: f's last pass takes its after from the module dump.
  std::string t =
      "// -----// IR Dump Before Canonicalizer (canonicalize) //----- //\nfunc.func @f() {\n  a\n}\n\n"
      "// -----// IR Dump Before CSE (cse) //----- //\nfunc.func @f() {\n  b\n}\n\n"
      "// -----// IR Dump Before SymbolDCE (symbol-dce) //----- //\nmodule {\n  func.func @f() {\n    c\n  }\n}\n\n\n";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].after, r[1].before);
  EXPECT_EQ(r[1].after, "func.func @f() {\n  c\n}\n");
  EXPECT_EQ(r[2].name, "symbol-dce");  // the last pass is kept
  EXPECT_EQ(r[2].status, "completed");
}

const char *kLlvmAfterAll = R"(; *** IR Dump After Annotation2MetadataPass on [module] ***
; ModuleID = 'small.ll'
source_filename = "small.c"

; Function Attrs: nounwind
define i32 @pick(i32 %c) #0 {
entry:
  %c.addr = alloca i32, align 4
  ret i32 %c
}

; Function Attrs: nounwind
define i32 @other() #0 {
entry:
  ret i32 0
}

attributes #0 = { nounwind }
; *** IR Dump After SROAPass on pick ***
; Function Attrs: nounwind
define i32 @pick(i32 %c) #0 {
entry:
  ret i32 %c
}
; *** IR Dump After EarlyCSEPass on pick ***
; Function Attrs: nounwind
define i32 @pick(i32 %c) #0 {
entry:
  ret i32 %c
}
; *** IR Dump After GlobalOptPass on [module] ***
; ModuleID = 'small.ll'
source_filename = "small.c"

; Function Attrs: nounwind
define i32 @pick(i32 %c) #0 {
entry:
  ret i32 %c
}

attributes #0 = { nounwind }
; *** IR Dump After LICMPass on loop %for.cond in function other ***

; Preheader:
entry:
  br label %for.cond
; *** IR Dump After LoopDeletionPass on loop %for.cond in function other (invalidated) ***
; ModuleID = 'small.ll'
)";

TEST(DumpAssembler, LlvmAfterAllChainsFunctionsAndSplicesModule) {
  Imported im = import_text(kLlvmAfterAll, Format::Auto, 13);
  EXPECT_EQ(im.result.detected, Format::Llvm);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0].name, "Annotation2MetadataPass");
  EXPECT_EQ(r[0].anchor, "[module]");
  // SROA's before is pick cut out of the module dump.
  EXPECT_EQ(r[1].anchor, "function pick");
  EXPECT_EQ(r[1].before,
            "; Function Attrs: nounwind\ndefine i32 @pick(i32 %c) #0 {\nentry:\n  %c.addr = alloca i32, align 4\n  ret i32 %c\n}\n");
  EXPECT_EQ(r[2].before, r[1].after);
  // GlobalOpt's before is the module with pick's newest text spliced in.
  EXPECT_EQ(r[3].before.find("alloca"), std::string::npos);
  EXPECT_NE(r[3].before.find("define i32 @other()"), std::string::npos);
  EXPECT_EQ(r[4].anchor, "loop %for.cond in function other");
  EXPECT_EQ(r[5].name, "LoopDeletionPass");
  EXPECT_EQ(r[5].after, "");
  EXPECT_NE(r[5].detail.find("invalidated"), std::string::npos);
  EXPECT_EQ(r[5].before, r[4].after);
  for (const auto &x : r) EXPECT_EQ(x.phase, "llvm");
}

TEST(DumpAssembler, LlvmPairedBeforeAfter) {
  std::string t =
      "; *** IR Dump Before SROAPass on f ***\ndefine void @f() {\n  %a = alloca i32\n  ret void\n}\n"
      "; *** IR Dump After SROAPass on f ***\ndefine void @f() {\n  ret void\n}\n"
      "; *** IR Dump Before EarlyCSEPass on f ***\ndefine void @f() {\n  ret void\n}\n"
      "; *** IR Dump After EarlyCSEPass on f ***\ndefine void @f() {\n  ret void\n}\n";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].before, "define void @f() {\n  %a = alloca i32\n  ret void\n}\n");
  EXPECT_EQ(r[0].after, "define void @f() {\n  ret void\n}\n");
}

const char *kPrintChanged = R"(*** IR Dump At Start ***
; ModuleID = 'small.ll'

define i32 @pick(i32 %c) {
entry:
  %x = add i32 %c, 0
  ret i32 %x
}
*** IR Dump After SROAPass on pick omitted because no change ***
*** IR Dump After InstCombinePass on pick ***
define i32 @pick(i32 %c) {
entry:
  ret i32 %c
}
*** IR Pass PassManager<Function> on pick ignored ***
*** IR Dump After GVNPass on pick filtered out ***
*** IR Pass LoopDeletionPass invalidated ***
*** IR Deleted After GlobalDCEPass on pick ***
)";

TEST(DumpAssembler, PrintChanged) {
  Imported im = import_text(kPrintChanged);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 5u);  // "ignored" pass managers and adaptors are no records
  EXPECT_EQ(r[0].name, "SROAPass");
  EXPECT_EQ(r[0].before, r[0].after);  // no-op
  EXPECT_NE(r[0].before.find("%x = add"), std::string::npos);
  EXPECT_NE(r[0].detail.find("omitted because no change"), std::string::npos);
  EXPECT_EQ(r[1].name, "InstCombinePass");
  EXPECT_EQ(r[1].before, r[0].after);
  EXPECT_EQ(r[1].after, "define i32 @pick(i32 %c) {\nentry:\n  ret i32 %c\n}\n");
  EXPECT_EQ(r[2].status, "skipped");
  EXPECT_EQ(r[2].error, "filtered out");
  EXPECT_EQ(r[3].name, "LoopDeletionPass");
  EXPECT_NE(r[3].detail.find("invalidated"), std::string::npos);
  EXPECT_EQ(r[4].name, "GlobalDCEPass");
  EXPECT_EQ(r[4].before, r[1].after);
  EXPECT_EQ(r[4].after, "");
}

TEST(DumpAssembler, PrintChangedDiffBody) {
  std::string t =
      "*** IR Dump After SROAPass on pick ***\n \n entry:\n-  %a = alloca i32\n+  %b = add i32 1, 2\n   ret i32 0\n";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].before, "\nentry:\n  %a = alloca i32\n  ret i32 0\n");
  EXPECT_EQ(r[0].after, "\nentry:\n  %b = add i32 1, 2\n  ret i32 0\n");
}

TEST(DumpAssembler, PrintChangedDiffBodyOfModulePassWithFunctionHeaders) {
  std::string t =
      "*** IR Dump After InstCombinePass on [module] ***\n*** IR for function f ***\n-  %a = add i32 1, 2\n"
      "+  %a = add i32 3, 0\n   ret void\n";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].before, "*** IR for function f ***\n  %a = add i32 1, 2\n  ret void\n");
  EXPECT_EQ(r[0].after, "*** IR for function f ***\n  %a = add i32 3, 0\n  ret void\n");
}

TEST(DumpAssembler, ClangThreeFamiliesAndMirStartsFromLlvmIr) {
  std::string t =
      "; *** IR Dump After InstCombinePass on pick ***\ndefine i32 @pick() {\n  ret i32 0\n}\n"
      "*** IR Dump After Pre-ISel Intrinsic Lowering (pre-isel-intrinsic-lowering) ***\n"
      "define i32 @pick() {\n  ret i32 1\n}\n"
      "# *** IR Dump After X86 DAG->DAG Instruction Selection (x86-isel) ***:\n"
      "# Machine code for function pick: IsSSA, TracksLiveness\n\nbb.0:\n  RET 0\n\n"
      "# End machine code for function pick.\n\n"
      "# *** IR Dump After Finalize ISel and expand pseudo-instructions (finalize-isel) ***:\n"
      "# Machine code for function pick: IsSSA\n\nbb.0:\n  RET64\n\n# End machine code for function pick.\n\n";
  Imported im = import_text(t);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[1].name, "pre-isel-intrinsic-lowering");
  EXPECT_EQ(r[1].detail, "Pre-ISel Intrinsic Lowering");
  EXPECT_EQ(r[1].before, r[0].after);
  EXPECT_EQ(r[2].name, "x86-isel");
  EXPECT_EQ(r[2].phase, "mir");
  EXPECT_EQ(r[2].lang, "llvm");  // ISel's input is the function's LLVM IR
  EXPECT_EQ(r[2].before, r[1].after);
  EXPECT_EQ(r[2].anchor, "machine function pick");
  EXPECT_EQ(r[3].lang, "mir");
  EXPECT_EQ(r[3].before, r[2].after);
  EXPECT_TRUE(im.result.warnings.empty());
}

TEST(DumpAssembler, FormatFilterTreatsOtherBannersAsText) {
  Imported im = import_text(kLlvmAfterAll, Format::Mlir);
  EXPECT_TRUE(im.targets.empty() || im.recs().empty());
  EXPECT_FALSE(im.result.warnings.empty());  // all of it is non-dump text for an MLIR import
}

}  // namespace
