// What imports hand the engine beyond live capture: records without a
// before-text (one-sided dumps) and failures with the IR after the failure.
// Checked end to end: Session -> trace.json, raw files, terminal summary, HTML data.
#include "lowertrace/dump.h"
#include "lowertrace/session.h"
#include "report/html_data.h"
#include "report/terminal.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sys/stat.h>

using namespace lowertrace;
namespace fs = std::filesystem;

namespace {

Config cfg_for(const std::string &dir, Mode m) {
  Config c;
  c.mode = m;
  c.trace_dir = dir;
  return c;
}

nlohmann::json trace_of(const Session &s) {
  return nlohmann::json::parse(lt_test::slurp(s.run().run_dir + "/trace.json"));
}

TEST(DumpSessionRecords, UnknownBeforeIsNotChanged) {
  lt_test::TempDir dir;
  Session s(SessionOptions{.script = "k", .tool = "lowertrace import"}, cfg_for(dir.path(), Mode::Html));
  int a = s.begin_pass("first", nullptr, "llvm");
  s.end_pass(a, s.intern(std::string("define void @f() {\n  ret void\n}\n")));
  int b = s.begin_pass("second", s.intern(std::string("define void @f() {\n  ret void\n}\n")), "llvm");
  s.end_pass(b, s.intern(std::string("define void @f() {\n  unreachable\n}\n")));
  s.finish();
  auto recs = s.records();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_FALSE(recs[0].before_known);
  EXPECT_FALSE(recs[0].changed) << "unknown is not changed";
  EXPECT_EQ(recs[0].add_lines, 0);
  EXPECT_TRUE(recs[1].before_known);
  EXPECT_TRUE(recs[1].changed);

  auto j = trace_of(s);
  EXPECT_EQ(j["records"][0]["before_known"], false);
  EXPECT_TRUE(j["records"][0]["before_text"].is_null());
  EXPECT_EQ(j["records"][0]["changed"], false);
  EXPECT_EQ(j["records"][1]["before_known"], true);

  report::ReportData data;
  EXPECT_EQ(data.record_json(recs[0]).value("nb", 0), 1);
  EXPECT_FALSE(data.record_json(recs[1]).contains("nb"));
  EXPECT_EQ(report::pass_line(recs[0], false).find("CHANGED"), std::string::npos);
  EXPECT_NE(report::pass_line(recs[0], false).find("NO BEFORE-TEXT"), std::string::npos);
}

TEST(DumpSessionRecords, FailureKeepsTheIrAfterIt) {
  lt_test::TempDir dir;
  Session s(SessionOptions{.script = "k"}, cfg_for(dir.path(), Mode::Terminal));
  int a = s.begin_pass("one-shot-bufferize", s.intern(std::string("module {\n}\n")), "mlir");
  s.fail_pass(a, "error: op was not bufferized", -1, true, s.intern(std::string("module {\n  half-done\n}\n")));
  int b = s.begin_pass("plain-failure", s.intern(std::string("module {\n}\n")), "mlir");
  s.fail_pass(b, "pass failed");
  s.finish();
  auto j = trace_of(s);
  ASSERT_EQ(j["records"].size(), 2u);
  EXPECT_EQ(j["records"][0]["status"], "failed");
  ASSERT_FALSE(j["records"][0]["after_text"].is_null()) << "the IR after the failure was dropped";
  std::string file = j["records"][0]["after_text"]["file"];
  EXPECT_EQ(lt_test::slurp(s.run().run_dir + "/" + file), "module {\n  half-done\n}\n");
  EXPECT_TRUE(j["records"][1]["after_text"].is_null());
}

// The import glue end to end: an after-only dump through a real Session.
TEST(DumpSessionRecords, ImportedAfterOnlyDumpCountsHonestly) {
  lt_test::TempDir dir;
  std::string dump = std::string(LT_SOURCE_DIR) + "/tests/data/dumps/mlir/after-all.txt";
  ASSERT_TRUE(fs::exists(dump));
  dump::ImportJob job;
  job.inputs = {dump};
  job.script = "after";
  dump::ImportResult r = dump::import_into_sessions(job, cfg_for(dir.path(), Mode::Terminal));
  ASSERT_EQ(r.records, 5);
  std::string trace;
  for (const auto &e : fs::recursive_directory_iterator(dir.path()))
    if (e.path().filename() == "trace.json") trace = e.path().string();
  ASSERT_FALSE(trace.empty());
  auto j = nlohmann::json::parse(lt_test::slurp(trace));
  int unknown = 0, changed = 0;
  for (const auto &rec : j["records"]) {
    unknown += rec["before_known"] == false;
    changed += rec["changed"] == true;
  }
  EXPECT_EQ(unknown, 3);  // canonicalize on @f and @g, symbol-dce: first dumps of their unit
  EXPECT_EQ(changed, 0);  // cse changes nothing here; the first dumps are unknown, not changes
}

}  // namespace

namespace {

// (15) A session that releases texts keeps no IR text of a finished record,
// yet writes the same raw files, trace.json sizes and report snapshots.
TEST(DumpSessionRecords, ReleasedTextsStillReachEverySink) {
  lt_test::TempDir dir;
  SessionOptions so{.script = "k"};
  so.release_texts = true;
  Session s(so, cfg_for(dir.path(), Mode::Html));
  std::string a = "func.func @f() {\n  %0 = arith.constant 0 : i32\n  return\n}\n", b = "func.func @f() {\n  return\n}\n";
  int p = s.begin_pass("canonicalize", s.intern(a), "mlir");
  s.end_pass(p, s.intern(b));
  int q = s.begin_pass("cse", s.intern(b), "mlir");  // the same text again: one id
  s.end_pass(q, s.intern(b));
  auto recs = s.records();
  ASSERT_EQ(recs.size(), 2u);
  for (const auto &r : recs) {
    EXPECT_TRUE(r.before->released && r.after->released) << r.name << ": the text is still held";
    EXPECT_TRUE(r.before_text().empty());
  }
  EXPECT_TRUE(recs[0].changed);
  EXPECT_FALSE(recs[1].changed);
  EXPECT_EQ(recs[0].after->id, recs[1].before->id);
  s.finish();
  auto j = trace_of(s);
  const std::string run = s.run().run_dir;
  EXPECT_EQ(lt_test::slurp(run + "/" + std::string(j["records"][0]["before_text"]["file"])), a);
  EXPECT_EQ(lt_test::slurp(run + "/" + std::string(j["records"][1]["after_text"]["file"])), b);
  for (const auto &snap : j["snapshots"])
    EXPECT_EQ(snap["bytes"], snap["id"] == 0 ? a.size() : b.size());
  // Identical texts are one file on disk: hard links.
  struct stat st {};
  ASSERT_EQ(::stat((run + "/" + std::string(j["records"][1]["after_text"]["file"])).c_str(), &st), 0);
  EXPECT_GE(st.st_nlink, 2u);
  // The report carries both texts (gzip+base64 payloads, one per snapshot).
  std::string html = lt_test::slurp(run + "/report.html");
  EXPECT_NE(html.find("id=\"z0\""), std::string::npos);
  EXPECT_NE(html.find("id=\"z1\""), std::string::npos);
  EXPECT_EQ(html.find("id=\"z2\""), std::string::npos);
}

// The store numbers texts but does not keep them: a text nobody holds is
// freed, and interning it again gives the same id.
TEST(DumpSessionRecords, StoreKeepsIdsNotTexts) {
  lt_test::TempDir dir;
  Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg_for(dir.path(), Mode::Terminal));
  std::weak_ptr<const SnapshotData> w;
  std::uint32_t id;
  {
    Snapshot x = s.intern(std::string("some IR\n"));
    w = x;
    id = x->id;
  }
  EXPECT_TRUE(w.expired()) << "the store kept the text alive";
  Snapshot y = s.intern(std::string("some IR\n"));
  EXPECT_EQ(y->id, id);
  EXPECT_EQ(y->text, "some IR\n");
  EXPECT_NE(s.intern(std::string("other\n"))->id, id);
}

}  // namespace
