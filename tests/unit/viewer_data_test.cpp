// What the viewer is given (issue 11): imports carry no pass times (trace.json
// says null, the report no "ms"), and each changed record carries its noise
// pairs ("z": renumbering under one renaming of the whole snapshot, or
// whitespace), so the sidebar can show real changes and noise apart.
#include "lowertrace/session.h"
#include "report/html_data.h"
#include "test_util.h"

#include <gtest/gtest.h>
#include <fstream>
#include <nlohmann/json.hpp>

using namespace lowertrace;

namespace {

Snapshot text(std::string t) {
  auto d = std::make_shared<SnapshotData>();
  d->text = std::move(t);
  d->hash_hi = std::hash<std::string>{}(d->text);
  d->hash_lo = d->text.size();
  return d;
}

LowerRecord changed(const std::string &a, const std::string &b) {
  LowerRecord r;
  r.before = text(a);
  r.after = text(b);
  r.changed = true;
  return r;
}

TEST(ViewerData, UntimedSessionRecordsNoWallTime) {
  lt_test::TempDir dir;
  Config cfg;
  cfg.mode = Mode::Terminal;
  cfg.trace_dir = dir.path();
  SessionOptions so;
  so.script = "untimed";
  so.timed = false;
  Session s(so, cfg);
  int a = s.begin_pass("canonicalize", s.intern(std::string("x\n")));
  s.end_pass(a, s.intern(std::string("y\n")));
  int b = s.begin_pass("cse", s.intern(std::string("y\n")));
  s.fail_pass(b, "boom");
  s.finish();
  auto recs = s.records();
  ASSERT_EQ(recs.size(), 2u);
  for (const auto &r : recs) EXPECT_LT(r.wall_ms, 0) << r.name;
  auto j = nlohmann::json::parse(lt_test::slurp(s.run().run_dir + "/trace.json"));
  for (const auto &r : j["records"]) EXPECT_TRUE(r["wall_ms"].is_null()) << r["name"];

  report::ReportData data;
  EXPECT_FALSE(data.record_json(recs[0]).contains("ms"));
}

TEST(ViewerData, TimedSessionKeepsWallTime) {
  lt_test::TempDir dir;
  Config cfg;
  cfg.mode = Mode::Terminal;
  cfg.trace_dir = dir.path();
  Session s(SessionOptions{"timed"}, cfg);
  int a = s.begin_pass("canonicalize", s.intern(std::string("x\n")));
  s.end_pass(a, s.intern(std::string("y\n")));
  s.finish();
  EXPECT_GE(s.records()[0].wall_ms, 0);
}

TEST(ViewerData, RecordCarriesItsNoisePairs) {
  report::ReportData data;
  // One op deleted at the top: the three later lines only shift names.
  auto shift = changed("  %0 = f\n  %1 = g %0\n  %2 = h %1\n  return %2\n",
                       "  %0 = g %arg0\n  %1 = h %0\n  return %1\n");
  auto j = data.record_json(shift);
  // `%1 = g %0` -> `%0 = g %arg0` reads another value now: real. The rest: noise.
  ASSERT_TRUE(j.contains("z"));
  EXPECT_EQ(j["z"], 2);
  EXPECT_EQ(j["a"], shift.add_lines);  // all +/- stay; the viewer subtracts z
  // Swapped uses: no noise at all.
  auto swap = changed("  %0 = f\n  %1 = g\n  %2 = h %0\n  %3 = k %1\n",
                      "  %0 = f\n  %1 = g\n  %2 = h %1\n  %3 = k %0\n");
  EXPECT_FALSE(data.record_json(swap).contains("z"));
  // Whitespace only is noise too.
  EXPECT_EQ(data.record_json(changed("a  b\nc\n", "a b\nc\n"))["z"], 1);
}

// A session that releases its texts (the LLVM plugin, importers) hands the
// final page stand-ins without text: the noise worked out when the record
// was live must still reach the final report (it was looked up by snapshot
// address, and the stand-ins' addresses are new: every "z" was lost).
TEST(ViewerData, FinalReportKeepsNoiseOfReleasedTexts) {
  lt_test::TempDir dir;
  Config cfg;
  cfg.mode = Mode::Html;
  cfg.trace_dir = dir.path();
  for (int chunk_ms : {0, 250}) {
    SessionOptions so;
    so.script = "released" + std::to_string(chunk_ms);
    so.release_texts = true;
    so.live_chunk_ms = chunk_ms;
    Session s(so, cfg);
    std::string before = "  %0 = f\n  %1 = g %0\n  %2 = h %1\n  return %2\n";
    int a = s.begin_pass("dce", s.intern(before));
    s.end_pass(a, s.intern(std::string("  %0 = g %arg0\n  %1 = h %0\n  return %1\n")));
    s.finish();
    std::string html = lt_test::slurp(s.run().run_dir + "/report.html");
    size_t m0 = html.find("id=\"lt-meta\">") + 13;
    auto meta = nlohmann::json::parse(html.substr(m0, html.find("</script>", m0) - m0));
    ASSERT_EQ(meta["recs"].size(), 1u) << chunk_ms;
    EXPECT_EQ(meta["recs"][0].value("z", 0), 2) << chunk_ms;
  }
}

// The source lines a report embeds are found in its texts. A session that
// releases its texts (the LLVM plugin) hands the final page stand-ins, so the
// texts must be scanned while the sink still has them: the plugin's reports
// of clang -g compiles had no source lines at all.
TEST(ViewerData, FinalReportKeepsSourceLinesOfReleasedTexts) {
  lt_test::TempDir dir;
  std::string src = dir.path() + "/s.c";
  std::ofstream(src) << "int f(int x) {\n  int y = x * 2;\n  return y;\n}\n";
  Config cfg;
  cfg.mode = Mode::Html;
  cfg.trace_dir = dir.path();
  for (bool release : {false, true})
    for (int chunk_ms : {0, 250}) {
      std::string label = std::string(release ? "released" : "kept") + ", chunks every " +
                          std::to_string(chunk_ms) + " ms";
      SessionOptions so;
      so.script = "src" + std::to_string(release) + std::to_string(chunk_ms);
      so.release_texts = release;
      so.live_chunk_ms = chunk_ms;
      Session s(so, cfg);
      // A module print with debug info, then a function print that only names !dbg.
      std::string module = "define i32 @f(i32 %x) !dbg !4 {\n  %y = mul i32 %x, 2, !dbg !9\n"
                           "  ret i32 %y, !dbg !10\n}\n"
                           "!1 = !DIFile(filename: \"s.c\", directory: \"" + dir.path() + "\")\n"
                           "!4 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 1)\n"
                           "!9 = !DILocation(line: 2, column: 11, scope: !4)\n"
                           "!10 = !DILocation(line: 3, column: 3, scope: !4)\n";
      int a = s.begin_pass("sroa", s.intern(module));
      std::string after = module;
      after.replace(after.find("mul"), 3, "shl");
      s.end_pass(a, s.intern(after));
      s.finish();
      std::string html = lt_test::slurp(s.run().run_dir + "/report.html");
      size_t m0 = html.find("id=\"lt-meta\">") + 13;
      auto meta = nlohmann::json::parse(html.substr(m0, html.find("</script>", m0) - m0));
      ASSERT_TRUE(meta.contains("src")) << label;
      EXPECT_EQ(meta["src"]["s.c"]["2"], "  int y = x * 2;") << label;
      EXPECT_EQ(meta["src"]["s.c"]["3"], "  return y;") << label;
    }
}

// A live report moves payloads it has written into chunks to a spill file
// (ReportData::spill): the final page must carry them byte for byte.
TEST(ViewerData, SpilledPayloadsReadBackWhole) {
  lt_test::TempDir dir;
  report::ReportData data;
  std::vector<int> keys;
  Snapshot a = text("define i32 @f() {\n  ret i32 0\n}\n");
  Snapshot b = text("define i32 @f() {\n  %x = add i32 1, 2\n  ret i32 %x\n}\n");
  data.ref(a, nullptr, &keys);
  data.ref(b, a, &keys);
  ASSERT_EQ(keys.size(), 2u);
  std::vector<std::string> want;
  std::string buf;
  for (int k : keys) want.emplace_back(data.payload(k, buf));
  ASSERT_FALSE(want[0].empty());
  ASSERT_EQ(data.spill({keys[0]}, dir.path() + "/p.spill"), "");
  ASSERT_EQ(data.spill({keys[1]}, dir.path() + "/p.spill"), "");  // appended
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_TRUE(data.stored(keys[i]).payload.empty()) << "still in memory";
    EXPECT_EQ(data.payload(keys[i], buf), want[i]);
  }
  // A spill file that cannot be made: an error, and the payload stays.
  report::ReportData other;
  std::vector<int> k2;
  other.ref(a, nullptr, &k2);
  EXPECT_NE(other.spill(k2, dir.path() + "/missing/dir/x"), "");
  EXPECT_EQ(other.payload(k2[0], buf), want[0]);
}

// The final page of a live, batched run (payloads spilled) equals, payload
// for payload, the page of a run that kept them in memory.
TEST(ViewerData, FinalPageOfASpilledRunHasEveryPayload) {
  lt_test::TempDir dir;
  Config cfg;
  cfg.mode = Mode::Html;
  cfg.trace_dir = dir.path();
  std::vector<std::string> pages;
  for (int chunk_ms : {0, 1}) {
    SessionOptions so;
    so.script = "spill" + std::to_string(chunk_ms);
    so.release_texts = true;
    so.live_chunk_ms = chunk_ms;
    Session s(so, cfg);
    std::string t = "  %0 = f\n";
    for (int i = 0; i < 40; ++i) {
      int p = s.begin_pass("p" + std::to_string(i), s.intern(std::string(t)));
      t += "  %" + std::to_string(i + 1) + " = g %" + std::to_string(i) + "\n";
      s.end_pass(p, s.intern(std::string(t)));
    }
    s.finish();
    std::string html = lt_test::slurp(s.run().run_dir + "/report.html");
    pages.push_back(html.substr(html.find("<script type=\"text/plain\"")));
  }
  ASSERT_NE(pages[0].find("id=\"z40\""), std::string::npos);
  EXPECT_EQ(pages[0].substr(0, pages[0].rfind("</script>")), pages[1].substr(0, pages[1].rfind("</script>")));
}

}  // namespace
