// util/fs: the write helpers the raw-file writer relies on.
#include "util/fs.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
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
  EXPECT_NE(err.find("cannot open"), std::string::npos) << err;
}
