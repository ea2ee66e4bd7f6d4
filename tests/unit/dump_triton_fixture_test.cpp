// The real Triton 3.6 MLIR_ENABLE_DUMP outputs (shared fixtures): every banner
// becomes one record, stitched before-to-before, the last pass kept.
#include "dump_recording.h"

#include <gtest/gtest.h>

#include <regex>
#include <unistd.h>

using namespace lowertrace::dump;
using namespace lowertrace::dump::testing;

namespace {

std::string fixture(const std::string &name) {
  std::string p = fixtures_dir() + "/triton-3.6/" + name;
  EXPECT_TRUE(std::filesystem::exists(p)) << "missing fixture " << p;
  return p;
}

// Banner pass arguments in file order, internal pipeliner steps by step name.
std::vector<std::string> banner_names(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string l;
  std::regex pass(R"(^// -----// IR Dump Before .* \(([^() ]+)\) \('.*$)");
  std::regex internal(R"(^// -----// SoftwarePipeliner internal IR Dump After: (\w+))");
  std::smatch m;
  while (std::getline(in, l)) {
    if (std::regex_match(l, m, pass)) out.push_back(m[1]);
    else if (std::regex_search(l, m, internal)) out.push_back(m[1]);
  }
  return out;
}

class TritonFixture : public ::testing::TestWithParam<const char *> {};

TEST_P(TritonFixture, OneRecordPerBannerInOrderWithStitchedTexts) {
  std::string path = fixture(GetParam());
  ASSERT_TRUE(std::filesystem::exists(path)) << "missing fixture " << path;
  std::string text = read_all(path);
  Imported im = import_text(text, Format::Auto, 65536);
  EXPECT_EQ(im.result.detected, Format::Triton);
  EXPECT_TRUE(im.result.warnings.empty()) << im.result.warnings.front();
  ASSERT_EQ(im.targets.size(), 1u);
  EXPECT_NE(im.compilations[0].kernel.find("kernel"), std::string::npos);
  const auto &recs = im.recs();
  std::vector<std::string> names;
  for (const auto &r : recs) names.push_back(r.name);
  EXPECT_EQ(names, banner_names(text));
  // Stitching: the after-text of each top-level pass is the before-text of the next.
  std::vector<const Rec *> top;
  for (const auto &r : recs)
    if (r.depth == 0) top.push_back(&r);
  for (std::size_t i = 0; i + 1 < top.size(); ++i)
    EXPECT_EQ(top[i]->after, top[i + 1]->before) << top[i]->name << " -> " << top[i + 1]->name;
  // The last pass is kept, with a note that its after-text was not dumped.
  EXPECT_EQ(top.back()->name, "enable-line-info");
  EXPECT_EQ(top.back()->status, "completed");
  EXPECT_NE(top.back()->detail.find("not in the dump"), std::string::npos);
  for (const auto &r : recs) EXPECT_EQ(r.status, "completed") << r.name;
}

TEST_P(TritonFixture, StagesAndNesting) {
  std::string path = fixture(GetParam());
  ASSERT_TRUE(std::filesystem::exists(path)) << "missing fixture " << path;
  Imported im = import_text(read_all(path));
  const auto &recs = im.recs();
  auto phase_of = [&](const std::string &name, int nth = 0) {
    for (const auto &r : recs)
      if (r.name == name && nth-- == 0) return r.phase;
    return std::string("?");
  };
  EXPECT_EQ(phase_of("inline"), "ttir");
  EXPECT_EQ(phase_of("triton-loop-unroll"), "ttir");
  EXPECT_EQ(phase_of("convert-triton-to-tritongpu"), "ttgir");
  EXPECT_EQ(phase_of("tritongpu-combine-tensor-select-and-if", 0), "ttgir");
  EXPECT_EQ(phase_of("tritongpu-combine-tensor-select-and-if", 1), "llir");
  EXPECT_EQ(phase_of("convert-triton-gpu-to-llvm"), "llir");
  // The inliner's per-function canonicalize runs are its children.
  ASSERT_GE(recs.size(), 3u);
  EXPECT_EQ(recs[0].name, "inline");
  EXPECT_EQ(recs[1].name, "canonicalize");
  EXPECT_EQ(recs[1].depth, 1);
  EXPECT_NE(recs[1].anchor.find("tt.func @"), std::string::npos);
  // Pipeliner internal steps are children of tritongpu-pipeline.
  for (std::size_t i = 0; i < recs.size(); ++i)
    if (recs[i].name == "LowerLoops") {
      EXPECT_EQ(recs[i].depth, 1);
      EXPECT_EQ(recs[i - 1].name, "tritongpu-pipeline");
      EXPECT_EQ(recs[i].before, recs[i - 1].before);
    }
}

INSTANTIATE_TEST_SUITE_P(Triton36, TritonFixture,
                         ::testing::Values("mlir_dump_add.txt", "mlir_dump_softmax.txt"));

TEST(TritonFixtureTest, TwoKernelsInOneStreamAreTwoCompilations) {
  std::string a = fixture("mlir_dump_add.txt"), s = fixture("mlir_dump_softmax.txt");
  ASSERT_TRUE(std::filesystem::exists(a) && std::filesystem::exists(s)) << "missing fixture";
  Imported im = import_text(read_all(a) + read_all(s));
  ASSERT_EQ(im.targets.size(), 2u);
  EXPECT_EQ(im.compilations[0].kernel, "add_kernel");
  EXPECT_EQ(im.compilations[1].kernel, "softmax_kernel");
  // The add kernel's last pass is closed at its own end, not by softmax's IR.
  const auto &last = im.recs(0).back();
  EXPECT_EQ(last.after.find("softmax"), std::string::npos);
}

}  // namespace

namespace {

std::string llvm_run(const char *marker) {
  std::string m = std::string("; ModuleID = 'LLVMDialectModule'\ndefine ptx_kernel void @add_kernel() {\n  ; ") +
                  marker + "\n  ret void\n}\n";
  return "; *** IR Dump After Annotation2MetadataPass on [module] ***\n" + m +
         "; *** IR Dump After InstCombinePass on add_kernel ***\ndefine ptx_kernel void @add_kernel() {\n  ret void\n}\n"
         "# *** IR Dump After NVPTX DAG->DAG Pattern Instruction Selection (nvptx-isel) ***:\n"
         "# Machine code for function add_kernel: IsSSA\n\nbb.0:\n  Return\n\n# End machine code for function add_kernel.\n\n";
}

TEST(TritonFixtureTest, SameKernelCompiledTwiceGetsItsOwnLlvmRun) {
  std::string a = fixture("mlir_dump_add.txt");
  ASSERT_TRUE(std::filesystem::exists(a)) << "missing fixture " << a;
  std::string mlir = read_all(a);
  // As `lowertrace run` feeds them: the MLIR_DUMP_PATH file, then stderr.
  std::string text = mlir + mlir + llvm_run("first") + llvm_run("second");
  Imported im = import_text(text, Format::Auto, 8192);
  ASSERT_EQ(im.targets.size(), 2u);
  EXPECT_EQ(im.compilations[1].kernel, "add_kernel");
  EXPECT_EQ(im.compilations[1].ordinal, 1);
  for (int k = 0; k < 2; ++k) {
    int llvm = 0, mir = 0;
    std::string first_llvm_after;
    for (const auto &r : im.recs(k)) {
      if (r.phase == "llvm" && ++llvm == 1) first_llvm_after = r.after;
      mir += r.phase == "mir";
    }
    EXPECT_EQ(llvm, 2) << "compile " << k;
    EXPECT_EQ(mir, 1) << "compile " << k;
    EXPECT_NE(first_llvm_after.find(k == 0 ? "first" : "second"), std::string::npos) << "compile " << k;
  }
}

TEST(TritonFixtureTest, StageFilesGiveThePtxCodegenRecord) {
  std::string a = fixture("mlir_dump_add.txt");
  ASSERT_TRUE(std::filesystem::exists(a)) << "missing fixture " << a;
  auto dir = std::filesystem::temp_directory_path() / ("lt_stage_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "HASHONE");
  std::ofstream(dir / "HASHONE" / "add_kernel.ttir") << "module {}\n";
  std::ofstream(dir / "HASHONE" / "add_kernel.llir") << "define void @add_kernel() {\n  ret void\n}\n";
  std::ofstream(dir / "HASHONE" / "add_kernel.ptx") << ".version 8.7\n.visible .entry add_kernel()\n{\n\tret;\n}\n";
  Imported im = import_text(read_all(a), Format::Triton, 65536, dir.string());
  std::filesystem::remove_all(dir);
  ASSERT_EQ(im.targets.size(), 1u);
  const auto &last = im.recs().back();
  EXPECT_EQ(last.status, "codegen");
  EXPECT_NE(last.before.find("define void @add_kernel"), std::string::npos);  // from the .llir
  EXPECT_NE(last.after.find(".visible .entry add_kernel"), std::string::npos);
  ASSERT_EQ(im.result.codegens.size(), 1u);
  EXPECT_EQ(im.result.codegens[0].kernel, "add_kernel");
}

}  // namespace

namespace {

TEST(TritonFixtureTest, PipelinerStepsPrintedToStderrFindTheirPass) {
  // Triton 3.6.0 on an H200 printed the SoftwarePipeliner steps to stderr
  // although MLIR_DUMP_PATH was set: they come after the whole MLIR file.
  std::string a = fixture("mlir_dump_add.txt");
  ASSERT_TRUE(std::filesystem::exists(a)) << "missing fixture " << a;
  std::string text = read_all(a), file, steps;
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t s = text.find("// -----// SoftwarePipeliner", pos);
    if (s == std::string::npos) {
      file += text.substr(pos);
      break;
    }
    std::size_t e = text.find("// -----// IR Dump", s);
    file += text.substr(pos, s - pos);
    steps += text.substr(s, e - s);
    pos = e;
  }
  ASSERT_FALSE(steps.empty());
  Imported in_file = import_text(text);
  Imported split = import_text(file + llvm_run("x") + steps);
  ASSERT_EQ(split.targets.size(), 1u);
  std::vector<std::string> want, got;
  for (const auto &r : in_file.recs()) want.push_back(r.name + "@" + std::to_string(r.depth) + ":" + r.before + r.after);
  for (const auto &r : split.recs())
    if (r.phase != "llvm" && r.phase != "mir") got.push_back(r.name + "@" + std::to_string(r.depth) + ":" + r.before + r.after);
  EXPECT_TRUE(want == got) << want.size() << " vs " << got.size();
  EXPECT_TRUE(split.result.warnings.empty());
}

}  // namespace
