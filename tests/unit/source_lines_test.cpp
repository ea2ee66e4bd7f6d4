// The source lines a report embeds for the locations in its IR.
#include "report/source_lines.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace fs = std::filesystem;
using lowertrace::report::source_lines;

namespace {
struct Dir {
  fs::path p = fs::temp_directory_path() / ("lt-src-" + std::to_string(::getpid()));
  Dir() { fs::remove_all(p); fs::create_directories(p); }
  ~Dir() { fs::remove_all(p); }
  std::string write(const std::string &name, const std::string &text) const {
    std::ofstream(p / name) << text;
    return (p / name).string();
  }
};
}  // namespace

TEST(SourceLines, MlirLocationsAndAliasesRelativeToTheInput) {
  Dir d;
  d.write("k.py", "def k(a):\n    x = a + 1\n    return x\n");
  std::string ir = "%0 = arith.addi %a, %c : i32 loc(#loc2)\n#loc2 = loc(\"k.py\":2:8)\n"
                   "return %0 : i32 loc(\"k.py\":3:4)\n#loc9 = loc(\"gone.py\":1:0)\n";
  auto j = source_lines({ir}, d.p.string());
  EXPECT_EQ(j["k.py"]["2"], "    x = a + 1");
  EXPECT_EQ(j["k.py"]["3"], "    return x");
  EXPECT_FALSE(j.contains("gone.py")) << "an unreadable file embeds nothing";
  EXPECT_FALSE(j["k.py"].contains("1")) << "only the lines the IR names";
}

TEST(SourceLines, LlvmDILocationThroughScopesToDIFile) {
  Dir d;
  d.write("s.c", "int f(int x) {\n  int y = x * 2;\n  return y;\n}\n");
  std::string ir = "define i32 @f(i32 %x) !dbg !4 {\n  %y = mul i32 %x, 2, !dbg !9\n  ret i32 %y, !dbg !10\n}\n"
                   "!1 = !DIFile(filename: \"s.c\", directory: \"" + d.p.string() + "\")\n"
                   "!4 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 1)\n"
                   "!7 = distinct !DILexicalBlock(scope: !4, line: 2)\n"
                   "!9 = !DILocation(line: 2, column: 11, scope: !7)\n"
                   "!10 = !DILocation(line: 3, column: 3, scope: !4)\n";
  auto j = source_lines({ir}, "");
  EXPECT_EQ(j["s.c"]["2"], "  int y = x * 2;");  // via the lexical block's scope
  EXPECT_EQ(j["s.c"]["3"], "  return y;");
}

TEST(SourceLines, PtxFileAndLoc) {
  Dir d;
  std::string path = d.write("k.cu", "a\nb\nc\n");
  std::string ptx = "\t.file\t1 \"" + path + "\"\n\t.loc\t1 3 0\n\tmov.u32 %r1, %tid.x;\n";
  auto j = source_lines({ptx}, "");
  EXPECT_EQ(j[path]["3"], "c");
  EXPECT_EQ(j[path].size(), 1u);
}

TEST(SourceLines, BoundedInLinesAndBytes) {
  Dir d;
  std::string big;
  for (size_t i = 0; i < lowertrace::report::kMaxSourceLines + 50; ++i) big += std::string(1000, 'x') + "\n";
  d.write("big.py", big);
  std::string ir;
  for (size_t i = 1; i <= lowertrace::report::kMaxSourceLines + 50; ++i)
    ir += "loc(\"big.py\":" + std::to_string(i) + ":0)\n";
  auto j = source_lines({ir}, d.p.string());
  EXPECT_EQ(j["big.py"].size(), lowertrace::report::kMaxSourceLines);
  EXPECT_EQ(j["big.py"]["1"].get<std::string>().size(), lowertrace::report::kMaxSourceLineBytes);
}
