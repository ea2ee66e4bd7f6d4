// Import fidelity on the dump shapes issue 8 (items 8-14) found wrong: module
// scope, one-sided dumps, dump-folder order, failure dumps, -print-changed
// adaptors, banners without IR and binary data inside a dump.
#include "dump_recording.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace lowertrace::dump;
using namespace lowertrace::dump::testing;

namespace {

std::string fixture(const std::string &rel) {
  std::string path = std::string(LT_SOURCE_DIR) + "/tests/data/dumps/" + rel;
  if (!std::filesystem::exists(path)) ADD_FAILURE() << "missing fixture " << path;
  return read_all(path);
}

bool any_warning(const ImportResult &r, std::string_view part) {
  return std::any_of(r.warnings.begin(), r.warnings.end(),
                     [&](const std::string &w) { return w.find(part) != std::string::npos; });
}

// (8) opt-22 -passes='function(sroa,instcombine),globaldce' -print-after-all
// -print-module-scope two.ll: every body is the module, so every before-text
// must be the module too. SROA and InstCombine leave @g alone.
TEST(DumpFidelity, ModuleScopeBeforeIsTheModule) {
  Imported im = import_text(fixture("llvm/two-module-scope.txt"));
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 6u);
  EXPECT_FALSE(r[0].before_known);  // the first dump: nothing before it
  for (std::size_t i = 1; i < r.size(); ++i) {
    EXPECT_TRUE(r[i].before_known) << i;
    EXPECT_EQ(r[i].before.rfind("; ModuleID", 0), 0u) << i << " " << r[i].name << ": before is not the module";
    EXPECT_EQ(r[i].before, r[i - 1].after) << i;  // module scope chains module to module
  }
  EXPECT_EQ(r[2].name, "SROAPass");
  EXPECT_EQ(r[2].anchor, "function g");
  EXPECT_EQ(r[2].before, r[2].after) << "SROA on g changed nothing";
  EXPECT_EQ(r[3].before, r[3].after) << "InstCombine on g changed nothing";
  EXPECT_NE(r[1].before, r[1].after) << "InstCombine on f folds the add";
}

// (9) An after-only dump shows no before-text for the first pass on each unit:
// the record must say so (a null before), not pretend the IR was empty.
TEST(DumpFidelity, AfterOnlyFirstPassHasNoBeforeText) {
  Imported im = import_text(fixture("mlir/after-all.txt"));
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 5u);  // canonicalize, cse on @f and @g; symbol-dce
  EXPECT_FALSE(r[0].before_known);  // canonicalize @f
  EXPECT_TRUE(r[1].before_known);   // cse @f: canonicalize's result
  EXPECT_EQ(r[1].before, r[0].after);
  EXPECT_FALSE(r[2].before_known);  // canonicalize @g
  EXPECT_TRUE(r[3].before_known);
  EXPECT_FALSE(r[4].before_known);  // symbol-dce: the first module dump
  for (const auto &x : r) EXPECT_EQ(x.status, "completed");
}

TEST(DumpFidelity, LlvmAfterOnlyFirstPassHasNoBeforeText) {
  const char *dump = "; *** IR Dump After SROAPass on f ***\n"
                     "define i32 @f(i32 %x) {\n  ret i32 %x\n}\n\n"
                     "; *** IR Dump After InstCombinePass on f ***\n"
                     "define i32 @f(i32 %x) {\n  ret i32 %x\n}\n\n";
  Imported im = import_text(dump);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_FALSE(r[0].before_known);
  EXPECT_TRUE(r[1].before_known);
  EXPECT_EQ(r[1].before, r[1].after);
}

// (10, 11) Dump folders in pipeline order.
class DumpFolder : public ::testing::Test {
protected:
  std::filesystem::path dir;
  void SetUp() override {
    dir = std::filesystem::temp_directory_path() /
          ("lt_dump_folder_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir);
  }
  void TearDown() override { std::filesystem::remove_all(dir); }
  void touch(const std::string &rel) {
    std::filesystem::create_directories((dir / rel).parent_path());
    std::ofstream(dir / rel) << "x";
  }
  std::vector<std::string> order() {
    std::vector<std::string> out;
    for (const auto &f : expand_input(dir.string()))
      out.push_back(std::filesystem::relative(f, dir).generic_string());
    return out;
  }
};

TEST_F(DumpFolder, IrDumpDirectoryBeforeComesBeforeAfter) {
  // opt-22 -print-before-all -print-after-all -ir-dump-directory=DIR names.
  for (const char *f : {"1-99e5-module-MemProfRemoveInfo-after.ll", "1-99e5-module-MemProfRemoveInfo-before.ll",
                        "10-99e5-function-8b1d-EarlyCSEPass-after.ll", "10-99e5-function-8b1d-EarlyCSEPass-before.ll",
                        "2-99e5-module-Annotation2MetadataPass-before.ll",
                        "2-99e5-module-Annotation2MetadataPass-after.ll"})
    touch(f);
  std::vector<std::string> want = {
      "1-99e5-module-MemProfRemoveInfo-before.ll",         "1-99e5-module-MemProfRemoveInfo-after.ll",
      "2-99e5-module-Annotation2MetadataPass-before.ll",   "2-99e5-module-Annotation2MetadataPass-after.ll",
      "10-99e5-function-8b1d-EarlyCSEPass-before.ll",      "10-99e5-function-8b1d-EarlyCSEPass-after.ll"};
  EXPECT_EQ(order(), want);
}

TEST_F(DumpFolder, IrDumpDirectoryInvalidatedFileIsItsPassAfter) {
  // opt-22 numbers the "invalidated" file of pass 223 as 222.
  for (const char *f : {"222-99e5-loop-7bbf-LoopDeletionPass-invalidated.ll", "222-99e5-loop-7bbf-SimpleLoopUnswitchPass-after.ll",
                        "222-99e5-loop-7bbf-SimpleLoopUnswitchPass-before.ll", "223-99e5-loop-7bbf-LoopDeletionPass-before.ll",
                        "224-99e5-function-8a8b-SROAPass-before.ll"})
    touch(f);
  std::vector<std::string> want = {"222-99e5-loop-7bbf-SimpleLoopUnswitchPass-before.ll",
                                   "222-99e5-loop-7bbf-SimpleLoopUnswitchPass-after.ll",
                                   "223-99e5-loop-7bbf-LoopDeletionPass-before.ll",
                                   "222-99e5-loop-7bbf-LoopDeletionPass-invalidated.ll",
                                   "224-99e5-function-8a8b-SROAPass-before.ll"};
  EXPECT_EQ(order(), want);
}

TEST_F(DumpFolder, MlirTreeDirNestedPipelineComesFirst) {
  // mlir-opt-22 --pass-pipeline='builtin.module(func.func(canonicalize,cse),symbol-dce)'
  //   --mlir-print-ir-before-all --mlir-print-ir-after-all --mlir-print-ir-tree-dir=DIR
  const std::string m = "builtin_module_no-symbol-name/";
  for (const char *f : {"1_symbol-dce.mlir", "2_symbol-dce.mlir", "func_func_f/0_0_canonicalize.mlir",
                        "func_func_f/0_1_canonicalize.mlir", "func_func_f/0_2_cse.mlir", "func_func_f/0_3_cse.mlir",
                        "func_func_g/0_10_cse.mlir", "func_func_g/0_0_canonicalize.mlir"})
    touch(m + f);
  std::vector<std::string> want;
  for (const char *f : {"func_func_f/0_0_canonicalize.mlir", "func_func_f/0_1_canonicalize.mlir",
                        "func_func_f/0_2_cse.mlir", "func_func_f/0_3_cse.mlir", "func_func_g/0_0_canonicalize.mlir",
                        "func_func_g/0_10_cse.mlir", "1_symbol-dce.mlir", "2_symbol-dce.mlir"})
    want.push_back(m + f);
  EXPECT_EQ(order(), want);
}

TEST_F(DumpFolder, UnnumberedFilesKeepNaturalOrder) {
  for (const char *f : {"b.txt", "a10.txt", "a2.txt"}) touch(f);
  EXPECT_EQ(order(), (std::vector<std::string>{"a2.txt", "a10.txt", "b.txt"}));
}

// (12) mlir-opt-22 fail-upstream.mlir --pass-pipeline='builtin.module(canonicalize,
// one-shot-bufferize{bufferize-function-boundaries})' --mlir-print-ir-before-all
// --mlir-print-ir-after-failure: the diagnostic (with its source line and caret)
// is printed after the Before dump of the failing pass and before its After.
TEST(DumpFidelity, MlirFailureDiagnosticStaysOutOfTheIr) {
  Imported im = import_text(fixture("mlir/bufferize-failure-before-all.txt"), Format::Auto, 13);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].name, "one-shot-bufferize");
  EXPECT_EQ(r[1].status, "failed");
  EXPECT_EQ(r[1].before, r[0].after) << "the before-text must be the IR alone";
  EXPECT_EQ(r[1].before.find('^'), std::string::npos);
  EXPECT_EQ(r[1].before.find("%t"), std::string::npos) << "the diagnostic's source line leaked into the IR";
  EXPECT_NE(r[1].error.find("error: op was not bufferized"), std::string::npos) << r[1].error;
  EXPECT_NE(r[1].error.find("       ^"), std::string::npos) << "the caret belongs to the diagnostic";
  EXPECT_NE(r[1].error.find("note: see current operation"), std::string::npos);
  EXPECT_TRUE(r[1].after_known) << "the IR after the failure is in the dump";
  EXPECT_NE(r[1].after.find("bufferization.to_tensor"), std::string::npos);
  EXPECT_TRUE(im.result.warnings.empty());
}

// A diagnostic printed while a dump is still open (unbalanced): its source
// line and caret are held back from the IR; an IR line after it is kept.
TEST(DumpFidelity, DiagnosticInsideAnOpenDump) {
  const char *dump = "// -----// IR Dump Before Canonicalizer (canonicalize) //----- //\n"
                     "func.func @f() {\n"
                     "in.mlir:2:3: error: boom\n"
                     "  foo.bar\n"
                     "  ^\n"
                     "  return\n"
                     "}\n\n"
                     "// -----// IR Dump After Canonicalizer (canonicalize) //----- //\n"
                     "func.func @f() {\n  return\n}\n\n";
  Imported im = import_text(dump, Format::Auto, 5);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].before, "func.func @f() {\n  return\n}\n");
  EXPECT_EQ(r[0].before, r[0].after);
}

// (13) -print-changed names pass managers and adaptors "ignored": they are no
// passes (-print-after-all of the same compile prints none of them).
TEST(DumpFidelity, PrintChangedIgnoredAdaptorsAreNoRecords) {
  const char *dump = "*** IR Dump At Start ***\n; ModuleID = 'm'\ndefine i32 @f(i32 %x) {\n  ret i32 %x\n}\n\n"
                     "*** IR Pass ModuleToFunctionPassAdaptor on [module] ignored ***\n"
                     "*** IR Pass PassManager<Function> on f ignored ***\n"
                     "*** IR Dump After SROAPass on f omitted because no change ***\n"
                     "*** IR Pass DevirtSCCRepeatedPass on (f) ignored ***\n"
                     "*** IR Dump After InstCombinePass on f filtered out ***\n";
  Imported im = import_text(dump);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].name, "SROAPass");
  EXPECT_EQ(r[0].status, "completed");
  EXPECT_EQ(r[1].status, "skipped");
  EXPECT_EQ(r[1].error, "filtered out");
}

// (14) A Before banner with no IR after it must not open a bogus parent.
TEST(DumpFidelity, BodylessBeforeBannerDoesNotBreakPairing) {
  const char *dump = "// -----// IR Dump Before Canonicalizer (canonicalize) //----- //\n"
                     "\n"
                     "// -----// IR Dump Before CSE (cse) //----- //\n"
                     "func.func @f() {\n  return\n}\n\n"
                     "// -----// IR Dump After CSE (cse) //----- //\n"
                     "func.func @f() {\n  return\n}\n\n"
                     "// -----// IR Dump After Canonicalizer (canonicalize) //----- //\n"
                     "func.func @f() {\n  return\n}\n\n";
  Imported im = import_text(dump);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 2u);
  for (const auto &x : r) {
    EXPECT_EQ(x.status, "completed") << x.name;
    EXPECT_EQ(x.depth, 0) << x.name;
  }
  EXPECT_EQ(r[0].name, "cse");
  EXPECT_EQ(r[1].name, "canonicalize");
  EXPECT_TRUE(any_warning(im.result, "no IR text"));
}

TEST(DumpFidelity, LlvmBodylessBeforeBanner) {
  const char *dump = "; *** IR Dump Before SROAPass on f ***\n"
                     "; *** IR Dump After SROAPass on f ***\n"
                     "define i32 @f(i32 %x) {\n  ret i32 %x\n}\n\n";
  Imported im = import_text(dump);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status, "completed");
  EXPECT_FALSE(r[0].before_known);
  EXPECT_TRUE(any_warning(im.result, "no IR text"));
}

// (14) NUL / binary bytes inside a dump: one warning, and the lines are left
// out, so an unchanged pass stays unchanged.
TEST(DumpFidelity, BinaryDataInsideADumpIsReportedAndLeftOut) {
  std::string dump = "// -----// IR Dump Before Canonicalizer (canonicalize) //----- //\n"
                     "func.func @f() {\n  return\n}\n\n"
                     "// -----// IR Dump After Canonicalizer (canonicalize) //----- //\n"
                     "func.func @f() {\n";
  const char elf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\n";
  const char junk[] = "\0\0\x13" "7 junk\n";
  dump.append(elf, sizeof elf - 1);  // without the literal's own NUL
  dump.append(junk, sizeof junk - 1);
  dump += "  return\n}\n\n";
  Imported im = import_text(dump);
  const auto &r = im.recs();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].after, "func.func @f() {\n  return\n}\n");
  EXPECT_EQ(r[0].before, r[0].after) << "binary garbage flipped 'changed'";
  int binary = 0;
  for (const auto &w : im.result.warnings) binary += w.find("binary data") != std::string::npos;
  EXPECT_EQ(binary, 1) << "one warning per damaged dump";
}

TEST(DumpFidelity, ColouredDiffBodiesAreNotBinary) {
  // -print-changed=cdiff colours lines with ESC sequences: text, not garbage.
  const char *dump = "*** IR Dump At Start ***\n; ModuleID = 'm'\ndefine i32 @f(i32 %x) {\n  %a = add i32 %x, 0\n"
                     "  ret i32 %a\n}\n\n"
                     "*** IR Dump After InstCombinePass on f ***\n"
                     " define i32 @f(i32 %x) {\n\x1b[31m-  %a = add i32 %x, 0\x1b[0m\n\x1b[31m-  ret i32 %a\x1b[0m\n"
                     "\x1b[32m+  ret i32 %x\x1b[0m\n }\n\n";
  Imported im = import_text(dump);
  EXPECT_FALSE(any_warning(im.result, "binary data"));
  ASSERT_EQ(im.recs().size(), 1u);
  EXPECT_NE(im.recs()[0].after.find("ret i32 %x"), std::string::npos);
}

}  // namespace
