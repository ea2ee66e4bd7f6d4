// util/fs: the write helpers the raw-file writer relies on.
#include "util/fs.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <csignal>
#include <filesystem>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using lt_test::TempDir;
using namespace lowertrace;

TEST(FsUtil, CreateFileMakesANewFile) {
  TempDir dir;
  std::string p = dir.path() + "/a.txt";
  EXPECT_EQ(util::create_file(p, "hello\n"), "");
  EXPECT_EQ(util::read_file(p).value_or("?"), "hello\n");
}

// The raw-file writer hard-links repeated snapshots; replacing one name must
// never change the text seen through its other names.
TEST(FsUtil, CreateFileReplacesAHardLinkInsteadOfWritingThroughIt) {
  TempDir dir;
  std::string a = dir.path() + "/a.txt", b = dir.path() + "/b.txt";
  ASSERT_EQ(util::create_file(a, "shared\n"), "");
  ASSERT_EQ(::link(a.c_str(), b.c_str()), 0);
  EXPECT_EQ(util::create_file(b, "mine\n"), "");
  EXPECT_EQ(util::read_file(a).value_or("?"), "shared\n");
  EXPECT_EQ(util::read_file(b).value_or("?"), "mine\n");
  struct stat sa {}, sb {};
  ASSERT_EQ(::stat(a.c_str(), &sa), 0);
  ASSERT_EQ(::stat(b.c_str(), &sb), 0);
  EXPECT_NE(sa.st_ino, sb.st_ino);
  EXPECT_EQ(sa.st_nlink, 1u);
}

TEST(FsUtil, CreateFileReportsAMissingFolder) {
  TempDir dir;
  std::string err = util::create_file(dir.path() + "/no/such/dir/x", "x");
  EXPECT_NE(err.find("cannot create"), std::string::npos) << err;
}

// A full disk or a file-size limit mid-write: the file is absent, never cut
// short under its final name, and no temporary is left behind. (Run in a
// child: the limit is per process.)
TEST(FsUtil, CreateFileLeavesNothingCutShortWhenTheWriteFails) {
  TempDir dir;
  std::string p = dir.path() + "/000000_big_before.mlir";
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit rl {64 * 1024, 64 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &rl);
    std::string err = util::create_file(p, std::string(1 << 20, 'x'));
    ::_exit(err.empty() ? 1 : 0);
  }
  int st = 0;
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "the write should have failed";
  EXPECT_FALSE(std::filesystem::exists(p));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(FsUtil, AtomicWriteReplacesAPlantedSymlinkWithoutFollowingIt) {
  TempDir dir;
  std::string victim = dir.path() + "/victim", p = dir.path() + "/trace.json";
  ASSERT_EQ(util::create_file(victim, "precious"), "");
  ASSERT_EQ(::symlink(victim.c_str(), p.c_str()), 0);
  EXPECT_EQ(util::atomic_write(p, "{}"), "");
  EXPECT_EQ(util::read_file(victim).value_or("?"), "precious");
  EXPECT_EQ(util::read_file(p).value_or("?"), "{}");
}

TEST(FsUtil, MakeDirsBelowRefusesALinkBelowTheRoot) {
  TempDir dir;
  std::string root = dir.path() + "/trace", elsewhere = dir.path() + "/etc";
  ASSERT_EQ(util::make_dirs(root), "");
  ASSERT_EQ(util::make_dirs(elsewhere), "");
  ASSERT_EQ(::symlink(elsewhere.c_str(), (root + "/k").c_str()), 0);
  std::string err = util::make_dirs_below(root, root + "/k/.run_records/run_1");
  EXPECT_NE(err.find("symbolic link"), std::string::npos) << err;
  EXPECT_TRUE(std::filesystem::is_empty(elsewhere));
  EXPECT_EQ(util::make_dirs_below(root, root + "/j/.run_records/run_1"), "");
  EXPECT_TRUE(std::filesystem::is_directory(root + "/j/.run_records/run_1"));
}
