// The three-file edit-and-recompile decision, case by case, and its I/O failures.
#include "engine/codegen_workflow.h"

#include "codegen_test_util.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace lowertrace::codegen {
namespace {

using testing::get;
using testing::names_with;
using testing::put;
using testing::TempDir;

enum class Src { Gen, Working };

struct Case {
  const char *name;
  std::optional<std::string> w, o;  // files before the call (nullopt = absent)
  std::string gen;
  std::string tag;
  Src source;
  std::string w_after, o_after;
  std::map<std::string, std::string> backups;  // file name -> content
};

const std::vector<Case> &cases() {
  static const std::vector<Case> c = {
      {"first_run", std::nullopt, std::nullopt, "A\n", "INIT", Src::Gen, "A\n", "A\n", {}},
      {"working_copy_deleted", std::nullopt, "X\n", "A\n", "INIT", Src::Gen, "A\n", "A\n", {}},
      {"init_backup", "mine\n", std::nullopt, "A\n", "INIT-BACKUP", Src::Gen, "A\n", "A\n",
       {{"k.ptx.bak.1", "mine\n"}}},
      // Nothing of the user's to save when the orphan working copy is the output itself.
      {"orphan_equal_to_gen", "A\n\n", std::nullopt, "A\n", "INIT", Src::Gen, "A\n\n", "A\n", {}},
      {"silent", "A\n", "A\n", "A\n", "", Src::Gen, "A\n", "A\n", {}},
      {"silent_trailing_ws", "A  \n\n", "A", "A\t\n", "", Src::Gen, "A  \n\n", "A", {}},
      {"regenerated", "A\n", "A\n", "B\n", "REGENERATED", Src::Gen, "B\n", "B\n", {}},
      {"regenerated_ws_only_working", "A \n", "A\n", "B\n", "REGENERATED", Src::Gen, "B\n", "B\n", {}},
      {"patched", "E\n", "A\n", "A\n", "PATCHED", Src::Working, "E\n", "A\n", {}},
      {"patched_gen_ws_only", "E\n", "A\n", "A\n\n  ", "PATCHED", Src::Working, "E\n", "A\n", {}},
      {"synced", "B  \n", "A\n", "B\n", "SYNCED", Src::Working, "B  \n", "B\n", {}},
      {"conflict", "E\n", "A\n", "B\n", "CONFLICT", Src::Gen, "B\n", "B\n",
       {{"k.ptx.bak.1", "E\n"}, {"k.ptx.original.bak.1", "A\n"}}},
      // Leading whitespace is content: "  E" is an edit of "E".
      {"leading_ws_is_an_edit", "  A\n", "A\n", "A\n", "PATCHED", Src::Working, "  A\n", "A\n", {}},
  };
  return c;
}

class CodegenDecision : public ::testing::TestWithParam<Case> {};

TEST_P(CodegenDecision, FilesTagAndSource) {
  const Case &c = GetParam();
  TempDir d;
  const std::string w = d / "k.ptx";
  if (c.w) put(w, *c.w);
  if (c.o) put(w + ".original", *c.o);

  Outcome out = resolve(w, c.gen);

  EXPECT_EQ(out.tag, c.tag);
  EXPECT_EQ(out.source, c.source == Src::Gen ? c.gen : *c.w);
  EXPECT_EQ(get(w), c.w_after);
  EXPECT_EQ(get(w + ".original"), c.o_after);
  EXPECT_EQ(get(w + ".latest"), c.gen) << "L is written on every run";
  std::map<std::string, std::string> backups;
  for (const std::string &n : names_with(d.path(), ".bak")) backups[n] = *get(d / n);
  EXPECT_EQ(backups, c.backups);
  EXPECT_EQ(out.backups.size(), c.backups.size());
  for (const std::string &b : out.backups) EXPECT_TRUE(c.backups.count(std::filesystem::path(b).filename()));
  for (const std::string &m : out.messages) EXPECT_EQ(m.find("WARNING"), std::string::npos) << m;
  if (c.tag.empty()) EXPECT_TRUE(out.messages.empty());
  else {
    ASSERT_FALSE(out.messages.empty());
    if (c.tag == "INIT") EXPECT_EQ(out.messages[0], "codegen source initialized at: " + w);
    else EXPECT_EQ(out.messages[0].rfind(c.tag, 0), 0u) << out.messages[0];
  }
}

INSTANTIATE_TEST_SUITE_P(Table, CodegenDecision, ::testing::ValuesIn(cases()),
                         [](const auto &info) { return std::string(info.param.name); });

TEST(CodegenWorkflow, MessagesMatchTheOriginalWording) {
  TempDir d;
  const std::string w = d / "codegen.cpp";
  EXPECT_EQ(resolve(w, "A", "codegen/03_codegen").messages,
            std::vector<std::string>{"codegen source initialized at: " + w});
  EXPECT_TRUE(resolve(w, "A", "codegen/03_codegen").messages.empty());
  EXPECT_EQ(resolve(w, "B", "codegen/03_codegen").messages,
            std::vector<std::string>{"codegen/03_codegen: REGENERATED (codegen changed, no user edits)"});
  put(w, "E");
  EXPECT_EQ(resolve(w, "B", "codegen/03_codegen").messages,
            std::vector<std::string>{"codegen/03_codegen: PATCHED (user edits)"});
  put(w, "C");
  EXPECT_EQ(resolve(w, "C", "codegen/03_codegen").messages,
            std::vector<std::string>{"codegen/03_codegen: SYNCED (user edits and codegen changed to the same source)"});
  put(w, "E");
  Outcome c = resolve(w, "D", "codegen/03_codegen");
  ASSERT_EQ(c.backups.size(), 2u);
  ASSERT_FALSE(c.messages.empty());
  EXPECT_EQ(c.messages[0], "codegen/03_codegen: CONFLICT (codegen restored; user edits saved in " + w +
                               ".bak.1, baseline in " + w + ".original.bak.1)");
  std::filesystem::remove(w + ".original");
  put(w, "F");
  Outcome ib = resolve(w, "D");
  ASSERT_EQ(ib.backups, std::vector<std::string>{w + ".bak.2"});
  EXPECT_EQ(ib.messages[0], "INIT-BACKUP \u2014 " + w + " existed without baseline, backed up to " + w + ".bak.2");
}

// The original overwrote codegen.cpp.bak on every conflict; a second conflict lost the first edit.
TEST(CodegenWorkflow, BackupsNeverOverwriteEarlierOnes) {
  TempDir d;
  const std::string w = d / "codegen.cu";
  resolve(w, "v1");
  put(w, "edit one");
  EXPECT_EQ(resolve(w, "v2").tag, "CONFLICT");
  put(w, "edit two");
  EXPECT_EQ(resolve(w, "v3").tag, "CONFLICT");
  std::filesystem::remove(w + ".original");
  put(w, "edit three");
  EXPECT_EQ(resolve(w, "v4").tag, "INIT-BACKUP");
  EXPECT_EQ(get(w + ".bak.1"), "edit one");
  EXPECT_EQ(get(w + ".original.bak.1"), "v1");
  EXPECT_EQ(get(w + ".bak.2"), "edit two");
  EXPECT_EQ(get(w + ".original.bak.2"), "v2");
  EXPECT_EQ(get(w + ".bak.3"), "edit three");
  EXPECT_EQ(names_with(d.path(), ".bak").size(), 5u);
}

// In a shared trace folder someone may plant a link where a backup's
// temporary will go: it must never be written through (the temporary used to
// be "<backup>.tmp<pid>", a name anyone could predict).
TEST(CodegenWorkflow, BackupNeverWritesThroughAPlantedSymlink) {
  TempDir d;
  const std::string w = d / "k.ptx";
  const std::string victim = d / "victim.txt";
  put(victim, "precious\n");
  put(w, "mine\n");  // an orphan working copy: INIT-BACKUP saves it as k.ptx.bak.1
  for (const std::string &name : {w + ".bak.1.tmp" + std::to_string(::getpid()),
                                  w + ".tmp" + std::to_string(::getpid())})
    ASSERT_EQ(::symlink(victim.c_str(), name.c_str()), 0);
  EXPECT_EQ(resolve(w, "A\n").tag, "INIT-BACKUP");
  EXPECT_EQ(get(victim), "precious\n");
  EXPECT_EQ(get(w + ".bak.1"), "mine\n");
  // And a link planted at the backup's own name is left alone, not followed.
  put(w, "mine again\n");
  std::filesystem::remove(w + ".original");
  ASSERT_EQ(::symlink(victim.c_str(), (w + ".bak.2").c_str()), 0);
  EXPECT_EQ(resolve(w, "B\n").tag, "INIT-BACKUP");
  EXPECT_EQ(get(victim), "precious\n");
  EXPECT_EQ(get(w + ".bak.3"), "mine again\n");
}

TEST(CodegenWorkflow, NumbersContinueAfterTheHighestExistingBackup) {
  TempDir d;
  const std::string w = d / "k.s";
  put(w + ".bak.1", "old 1");
  put(w + ".original.bak.7", "old 7");
  put(w + ".bak.x", "not a number");  // ignored by the numbering
  resolve(w, "v1");
  put(w, "edit");
  Outcome out = resolve(w, "v2");
  EXPECT_EQ(out.backups, (std::vector<std::string>{w + ".bak.8", w + ".original.bak.8"}));
  EXPECT_EQ(get(w + ".bak.1"), "old 1");
  EXPECT_EQ(get(w + ".original.bak.7"), "old 7");
  EXPECT_EQ(get(w + ".bak.8"), "edit");
}

TEST(CodegenWorkflow, CreatesMissingParentFolders) {
  TempDir d;
  const std::string w = d / "a/b/c/k.ll";
  Outcome out = resolve(w, "define void @f() { ret void }\n");
  EXPECT_EQ(out.tag, "INIT");
  EXPECT_EQ(get(w), "define void @f() { ret void }\n");
}

TEST(CodegenWorkflow, PatchedPersistsUntilTheGeneratorChanges) {
  TempDir d;
  const std::string w = d / "k.ptx";
  resolve(w, "gen");
  put(w, "edited");
  for (int i = 0; i < 3; ++i) {
    Outcome out = resolve(w, "gen");
    EXPECT_EQ(out.tag, "PATCHED");
    EXPECT_EQ(out.source, "edited");
  }
}

// --- I/O failures: a warning, the codegen output, and the user's file untouched.

void expect_io_warning(const Outcome &out, const std::string &gen) {
  EXPECT_EQ(out.source, gen);
  EXPECT_EQ(out.tag, "");
  ASSERT_EQ(out.messages.size(), 1u);
  EXPECT_EQ(out.messages[0].rfind("WARNING: codegen file I/O failed: ", 0), 0u) << out.messages[0];
  EXPECT_TRUE(out.backups.empty());
}

TEST(CodegenWorkflowIo, ParentIsARegularFile) {
  TempDir d;
  put(d / "file", "x");
  expect_io_warning(resolve(d / "file/sub/k.ptx", "gen"), "gen");
  EXPECT_EQ(get(d / "file"), "x");
}

TEST(CodegenWorkflowIo, WorkingCopyIsADirectory) {
  TempDir d;
  std::filesystem::create_directory(d / "k.ptx");
  put(d / "k.ptx.original", "gen");
  expect_io_warning(resolve(d / "k.ptx", "gen"), "gen");
  EXPECT_TRUE(std::filesystem::is_directory(d / "k.ptx"));
}

TEST(CodegenWorkflowIo, BaselineUnreadableKeepsTheEdit) {
  TempDir d;
  put(d / "k.ptx", "user edit");
  std::filesystem::create_directory(d / "k.ptx.original");
  expect_io_warning(resolve(d / "k.ptx", "gen"), "gen");
  EXPECT_EQ(get(d / "k.ptx"), "user edit");
}

TEST(CodegenWorkflowIo, LatestUnwritableStopsBeforeTouchingAnything) {
  TempDir d;
  const std::string w = d / "k.ptx";
  resolve(w, "v1");
  put(w, "user edit");
  std::filesystem::remove(w + ".latest");
  std::filesystem::create_directory(w + ".latest");  // rename() of a file onto a directory fails
  expect_io_warning(resolve(w, "v2"), "v2");
  EXPECT_EQ(get(w), "user edit");
  EXPECT_EQ(get(w + ".original"), "v1");
}

// Root ignores permission bits, so the chmod variant only runs when it really blocks.
TEST(CodegenWorkflowIo, ReadOnlyFolder) {
  TempDir d;
  const std::string dir = d / "ro";
  std::filesystem::create_directory(dir);
  const std::string w = dir + "/k.ptx";
  resolve(w, "v1");
  put(w, "user edit");
  ASSERT_EQ(::chmod(dir.c_str(), 0500), 0);
  bool blocked = ::access(dir.c_str(), W_OK) != 0;
  Outcome out = resolve(w, "v2");
  ::chmod(dir.c_str(), 0700);
  if (!blocked) GTEST_SKIP() << "running as root: permission bits do not block writes (other tests cover I/O failures)";
  expect_io_warning(out, "v2");
  EXPECT_EQ(get(w), "user edit");
}

TEST(CodegenWorkflow, ExtensionForLanguages) {
  EXPECT_EQ(extension_for("ptx"), "ptx");
  EXPECT_EQ(extension_for("llvm-ir"), "ll");
  EXPECT_EQ(extension_for("llvm"), "ll");
  EXPECT_EQ(extension_for("asm"), "s");
  EXPECT_EQ(extension_for("c++"), "cpp");
  EXPECT_EQ(extension_for("cpp"), "cpp");
  EXPECT_EQ(extension_for("CUDA"), "cu");
  EXPECT_EQ(extension_for("mlir"), "mlir");
  EXPECT_EQ(extension_for("c"), "c");
  EXPECT_EQ(extension_for("klingon"), "txt");
  EXPECT_EQ(extension_for(""), "txt");
}

}  // namespace
}  // namespace lowertrace::codegen
