// report/variant_index: the per-kernel list of compiled variants.
#include "codegen_test_util.h"
#include "report/variant_index.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace {

using lowertrace::codegen::testing::get;
using lowertrace::codegen::testing::TempDir;

std::string facts(const std::string &v, int block, int warps, const std::string &dtype) {
  return R"({"kernel":"k","variant":")" + v + R"(","run_id":"run_)" + v + R"(","working_copy":"codegen.k.)" + v +
         R"(.ptx","records":7,"error":"","edited":false,"describe":{"hash":")" + v +
         R"(ffff","num_stages":3,"num_warps":)" + std::to_string(warps) + R"(,"constexprs":{"BLOCK":)" +
         std::to_string(block) + R"(},"signature":{"x":")" + dtype + R"("}}})";
}

int rows(const std::string &html) {
  int n = 0;
  for (std::size_t at = html.find("<tr data-variant="); at != std::string::npos; at = html.find("<tr data-variant=", at + 1))
    ++n;
  return n;
}

TEST(VariantIndex, ColumnsAreWhatTellsVariantsApart) {
  TempDir d;
  lowertrace::report::record_variant(d.path(), "aaa", facts("aaa", 64, 4, "*fp32"));
  std::string idx = lowertrace::report::record_variant(d.path(), "bbb", facts("bbb", 128, 4, "*fp32"));
  ASSERT_EQ(idx, d / "index.html");
  std::string html = get(idx).value_or("");
  EXPECT_EQ(rows(html), 2);
  auto head = html.substr(0, html.find("</thead>"));
  EXPECT_NE(head.find("constexprs.BLOCK"), std::string::npos);  // differs: a column
  EXPECT_EQ(head.find("num_warps"), std::string::npos);         // same for both: not a column
  EXPECT_EQ(head.find(">hash<"), std::string::npos);             // the id says it already
  EXPECT_NE(html.find("Common to all variants"), std::string::npos);
  EXPECT_NE(html.find("href=\".run_records/run_aaa/report.html\""), std::string::npos);
  EXPECT_NE(html.find("codegen.k.bbb.ptx"), std::string::npos);
}

TEST(VariantIndex, ARerunReplacesItsVariantAndKeepsTheOthers) {
  TempDir d;
  lowertrace::report::record_variant(d.path(), "aaa", facts("aaa", 64, 4, "*fp32"));
  lowertrace::report::record_variant(d.path(), "bbb", facts("bbb", 64, 8, "*fp16"));
  std::string html = get(lowertrace::report::record_variant(d.path(), "aaa", facts("aaa", 64, 4, "*fp32"))).value_or("");
  EXPECT_EQ(rows(html), 2);
  auto head = html.substr(0, html.find("</thead>"));
  EXPECT_NE(head.find("num_warps"), std::string::npos);
  EXPECT_NE(head.find("signature.x"), std::string::npos);
}

TEST(VariantIndex, ConcurrentWritersLeaveEveryVariantListed) {
  TempDir d;
  std::vector<std::thread> ts;
  for (int i = 0; i < 8; ++i)
    ts.emplace_back([&, i] {
      std::string v = "v" + std::to_string(i);
      lowertrace::report::record_variant(d.path(), v, facts(v, 16 << i, 4, "*fp32"));
    });
  for (auto &t : ts) t.join();
  EXPECT_EQ(rows(get(d / "index.html").value_or("")), 8);
}

TEST(VariantIndex, KernelTextIsEscaped) {
  TempDir d;
  std::string f = facts("aaa", 64, 4, "*fp32");
  f.replace(f.find("\"kernel\":\"k\""), 12, "\"kernel\":\"<script>\"");
  std::string html = get(lowertrace::report::record_variant(d.path(), "aaa", f)).value_or("");
  EXPECT_EQ(html.find("<script>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;"), std::string::npos);
}

}  // namespace
