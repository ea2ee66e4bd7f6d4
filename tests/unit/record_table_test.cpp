// RecordTable: finished records held compactly give back exactly what was put in.
#include "engine/layout.h"
#include "engine/record_table.h"
#include "lowertrace/session.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace lowertrace;
using lt_test::TempDir;

namespace {
Snapshot snap(std::string text, std::uint32_t id) {
  auto s = std::make_shared<SnapshotData>();
  s->text = std::move(text);
  s->id = id;
  s->hash_lo = id * 7 + 1;
  return s;
}

// Every field, compared (LowerRecord has no operator==).
void expect_same(const LowerRecord &a, const LowerRecord &b) {
  EXPECT_EQ(a.phase, b.phase);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.index, b.index);
  EXPECT_EQ(a.before, b.before);
  EXPECT_EQ(a.after, b.after);
  EXPECT_EQ(a.changed, b.changed);
  EXPECT_EQ(a.add_lines, b.add_lines);
  EXPECT_EQ(a.del_lines, b.del_lines);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.error_msg, b.error_msg);
  EXPECT_EQ(a.before_known, b.before_known);
  EXPECT_EQ(a.depth, b.depth);
  EXPECT_EQ(a.parent_index, b.parent_index);
  EXPECT_EQ(a.wall_ms, b.wall_ms);
  EXPECT_EQ(a.anchor, b.anchor);
  EXPECT_EQ(a.ir_lang, b.ir_lang);
  EXPECT_EQ(a.lang, b.lang);
  EXPECT_EQ(a.detail, b.detail);
  EXPECT_EQ(a.before_file, b.before_file);
  EXPECT_EQ(a.after_file, b.after_file);
}

void fill(LowerRecord &r, int k) {
  r.phase = k % 3 ? "llvm" : "mir";
  r.name = "Pass" + std::to_string(k % 4) + std::string(k % 2 ? 20 : 0, 'x');  // some past SSO
  r.before = snap("t" + std::to_string(k), static_cast<std::uint32_t>(k));
  r.after = k % 5 == 4 ? nullptr : snap("t" + std::to_string(k + 1), static_cast<std::uint32_t>(k + 1));
  r.changed = k % 2;
  r.add_lines = k;
  r.del_lines = 2 * k;
  r.status = std::string(k % 5 == 4 ? STATUS_FAILED : STATUS_COMPLETED);
  r.error_msg = k % 5 == 4 ? "boom " + std::to_string(k) : "";
  r.before_known = k % 7 != 6;
  r.wall_ms = k * 0.125;
  r.anchor = "f" + std::to_string(k % 6);
  r.ir_lang = "llvm";
  r.lang = k % 3 ? "" : "mir";
  r.detail = k % 2 ? "function(" + std::to_string(k) + ")" : "";
}
}  // namespace

TEST(RecordTable, ClosedRecordsComeBackFieldForField) {
  RecordTable t;
  std::vector<LowerRecord> want;
  LowerRecord &outer = t.open();
  fill(outer, 0);
  for (int k = 1; k < 40; ++k) {
    LowerRecord &r = t.open();
    EXPECT_EQ(r.index, k);
    fill(r, k);
    r.depth = 1;
    r.parent_index = 0;
    want.push_back(r);
    t.close(k);
  }
  // The parent is still open: the list gives it as it is now.
  EXPECT_EQ(t[0].name, "Pass0");
  EXPECT_EQ(t.status(0), STATUS_COMPLETED);
  t.open_record(0)->status = std::string(STATUS_FAILED);
  EXPECT_EQ(t.status(0), STATUS_FAILED);
  LowerRecord parent = t[0];
  want.insert(want.begin(), parent);
  t.close(0);
  ASSERT_EQ(t.size(), want.size());
  std::size_t i = 0;
  for (const LowerRecord &r : t) expect_same(r, want[i++]);
  for (i = 0; i < want.size(); ++i) expect_same(t[i], want[i]);
  EXPECT_EQ(t.status(4), STATUS_FAILED);
  EXPECT_EQ(t.error(4), "boom 4");
  EXPECT_EQ(t.parent_index(7), 0);
  EXPECT_EQ(t.ir_lang(7), "llvm");
}

TEST(RecordTable, LateFactsReachFinishedRecords) {
  RecordTable t;
  LowerRecord &r = t.open();
  r.name = "p";
  r.anchor = "f";
  t.close(0);
  t.set_anchor(0, "g x2000 (3 changed)");
  t.set_detail(0, "invalidated");
  t.set_error(0, "pass did not complete");
  LowerRecord got = t[0];
  EXPECT_EQ(got.anchor, "g x2000 (3 changed)");
  EXPECT_EQ(got.detail, "invalidated");
  EXPECT_EQ(got.error_msg, "pass did not complete");
  EXPECT_EQ(got.name, "p");
}

TEST(RecordTable, AReusedRecordStartsFresh) {
  RecordTable t;
  LowerRecord &a = t.open();
  fill(a, 3);
  t.close(0);
  LowerRecord &b = t.open();  // the object a was, reused
  LowerRecord fresh;
  fresh.index = 1;
  expect_same(b, fresh);
}

TEST(RecordTable, FilesNameTheRecordThatWroteThemWhateverCameBefore) {
  // Rebuilt in one scratch record, each record's file names must be its own,
  // whether the previous record named the same files, others, or none.
  RecordTable t;
  using F = RecordTable::FileRef;
  const std::vector<std::pair<F, F>> refs = {
      {F{}, F{}}, {F{0, true}, F{0, true}}, {F{0, true}, F{0, true}}, {F{}, F{}},
      {F{0, false}, F{}}, {F{2, true}, F{0, true}}, {F{0, true}, F{2, true}}, {F{}, F{0, false}}};
  for (std::size_t k = 0; k < refs.size(); ++k) {
    LowerRecord &r = t.open();
    r.phase = "llvm";
    r.name = "P" + std::to_string(k);
    r.ir_lang = "llvm";
    r.before = snap("b", 0);
    r.after = snap("a", 1);
    t.close(static_cast<int>(k), refs[k].first, refs[k].second);
  }
  auto path = [&](F f) {
    if (f.index < 0) return std::string();
    LowerRecord w = t[static_cast<std::size_t>(f.index)];
    return layout::raw_file_path(w, f.after);
  };
  EXPECT_EQ(path(F{2, true}), "llvm/000002_P2_after.ll");
  // The writer's recent paths, in any order of asking.
  for (F f : {F{0, true}, F{2, true}, F{0, true}, F{0, false}, F{2, true}, F{2, true}, F{0, true}})
    EXPECT_EQ(t.recent_path(f), path(f));
  std::size_t k = 0;
  for (const LowerRecord &r : t) {
    EXPECT_EQ(r.before_file, path(refs[k].first)) << k;
    EXPECT_EQ(r.after_file, path(refs[k].second)) << k;
    ++k;
  }
}

TEST(RecordTable, PlaceTextGivesTheFirstRecordTheFile) {
  RecordTable t;
  EXPECT_EQ(t.place_text(5, 3, true).index, -1);  // record 3 writes it
  RecordTable::FileRef f = t.place_text(5, 9, false);
  EXPECT_EQ(f.index, 3);
  EXPECT_TRUE(f.after);
  EXPECT_EQ(t.place_text(6, 9, false).index, -1);
  t.clear();
  EXPECT_EQ(t.place_text(5, 0, false).index, -1);  // a new run starts afresh
}

TEST(RecordTable, SinksSeeOpenParentsAndFinishedChildrenDuringARun) {
  // What a sink reads through `all` while a child is delivered: its parent
  // still open, earlier siblings finished, all with their own fields.
  struct Probe : Sink {
    std::vector<std::string> seen;
    void on_record(const RunInfo &, const LowerRecord &rec, const RecordList &all) override {
      std::string line = rec.name + ":";
      for (const LowerRecord &r : all) line += " " + r.name + "/" + r.status + "/" + r.anchor;
      seen.push_back(line);
    }
    void on_finish(const RunInfo &, const RecordList &all, const std::string &) override {
      seen.push_back("finish " + std::to_string(all.size()) + " " + all[1].anchor);
    }
  };
  TempDir dir;
  Config cfg;
  cfg.mode = Mode::Terminal;
  cfg.trace_dir = dir.path();
  auto probe = std::make_shared<Probe>();
  {
    Session s(SessionOptions{.script = "k", .install_default_sinks = false}, cfg);
    s.add_sink(probe);
    auto a = s.intern(std::string("a\n")), b = s.intern(std::string("b\n"));
    int outer = s.begin_pass("outer", a);
    s.annotate(outer, "m");
    int c1 = s.begin_pass("c1", a);
    s.annotate(c1, "f1");
    s.end_pass(c1, b);
    int c2 = s.begin_pass("c2", b);
    s.fail_pass(c2, "bad", -1, /*ancestors=*/false);
    s.annotate(c1, "f1 later");  // a late fact for a finished record
    s.end_pass(outer, b);
    s.finish();
    auto recs = s.records();
    ASSERT_EQ(recs.size(), 3u);
    EXPECT_EQ(recs[1].anchor, "f1 later");
    EXPECT_EQ(recs[2].error_msg, "bad");
    EXPECT_EQ(recs[0].status, STATUS_COMPLETED);
  }
  ASSERT_EQ(probe->seen.size(), 4u);
  EXPECT_EQ(probe->seen[0], "c1: outer/completed/m c1/completed/f1");
  EXPECT_EQ(probe->seen[1], "c2: outer/completed/m c1/completed/f1 c2/failed/");
  EXPECT_EQ(probe->seen[2], "outer: outer/completed/m c1/completed/f1 later c2/failed/");
  EXPECT_EQ(probe->seen[3], "finish 3 f1 later");
}
