// Several writers share one working copy: threads of one process, and two processes.
//
// Only codegen runs write here (no user), so W and O always hold the same
// generator output between transactions; a consistent outcome is therefore
// INIT, REGENERATED or silent, with the codegen output returned. Without the
// lock a writer sees W from one run and O from another and reports a bogus
// PATCHED/SYNCED/CONFLICT. Every file must be a whole output, never a torn one.
#include "engine/codegen_workflow.h"

#include "codegen_test_util.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace lowertrace::codegen {
namespace {

using testing::get;
using testing::names_with;
using testing::TempDir;

// Big enough (about 100 KB) that a torn write would show.
std::string gen_text(int writer, int iter) {
  std::string head = "// writer " + std::to_string(writer) + " run " + std::to_string(iter) + "\n";
  std::string out = head;
  for (int i = 0; i < 2500; ++i) out += "  mov.u32 %r" + std::to_string(i) + ", " + std::to_string(writer) + ";\n";
  return out;
}

// "" if `text` is exactly some gen_text(), else what is wrong.
std::string check_whole(const std::optional<std::string> &text) {
  if (!text) return "missing";
  int writer = -1, iter = -1;
  if (std::sscanf(text->c_str(), "// writer %d run %d", &writer, &iter) != 2) return "bad header";
  return *text == gen_text(writer, iter) ? "" : "torn file (writer " + std::to_string(writer) + ")";
}

// One writer's loop; returns "" or the first inconsistency.
std::string writer_loop(const std::string &w, int writer, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    std::string gen = gen_text(writer, i % 3);  // repeats give silent runs too
    Outcome out = resolve(w, gen);
    if (out.tag != "" && out.tag != "INIT" && out.tag != "REGENERATED")
      return "inconsistent outcome " + out.tag + " at run " + std::to_string(i);
    if (out.source != gen) return "wrong source at run " + std::to_string(i);
    for (const std::string &msg : out.messages)
      if (msg.find("WARNING") != std::string::npos) return msg;
    // Renames are atomic, so even unlocked readers must see whole files.
    for (const char *suffix : {"", ".original", ".latest"})
      if (std::string e = check_whole(get(w + suffix)); !e.empty()) return w + suffix + ": " + e;
  }
  return "";
}

void expect_clean_end_state(const TempDir &d, const std::string &w) {
  EXPECT_EQ(check_whole(get(w)), "");
  EXPECT_EQ(get(w), get(w + ".original"));
  EXPECT_TRUE(names_with(d.path(), ".bak").empty()) << "no user edits, so no backups";
  EXPECT_TRUE(names_with(d.path(), ".tmp").empty()) << "temporary files left behind";
}

TEST(CodegenConcurrency, TwoProcessesShareOneWorkingCopy) {
  TempDir d;
  const std::string w = d / "codegen.ptx";
  pid_t kids[2];
  for (int k = 0; k < 2; ++k) {
    kids[k] = ::fork();
    ASSERT_GE(kids[k], 0);
    if (kids[k] == 0) {
      std::string e = writer_loop(w, k, 150);
      if (!e.empty()) {
        std::fprintf(stderr, "child %d: %s\n", k, e.c_str());
        ::_exit(1);
      }
      ::_exit(0);
    }
  }
  for (pid_t kid : kids) {
    int status = 0;
    ASSERT_EQ(::waitpid(kid, &status, 0), kid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a child saw an inconsistency (see stderr)";
  }
  expect_clean_end_state(d, w);
}

TEST(CodegenConcurrency, ThreadsShareOneWorkingCopyUnderDifferentSpellings) {
  TempDir d;
  std::filesystem::create_directory(d / "sub");
  const std::string w = d / "codegen.ptx";
  // The same file named two ways: the lock must be keyed by the real path.
  const std::string spellings[] = {w, d.path() + "/sub/../codegen.ptx"};
  std::string errors[4];
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { errors[t] = writer_loop(spellings[t % 2], t, 60); });
  for (auto &th : threads) th.join();
  for (const std::string &e : errors) EXPECT_EQ(e, "");
  expect_clean_end_state(d, w);
}

}  // namespace
}  // namespace lowertrace::codegen
