// trace.json's records and the report's record metadata are written by hand
// (a JSON tree per record was a visible part of the LLVM plugin's cost). They
// must stay byte for byte what the JSON trees they replaced dump to, for
// every kind of value: escapes, invalid UTF-8, missing texts, nulls, numbers.
#include "engine/layout.h"
#include "engine/trace_json.h"
#include "report/html_codec.h"
#include "report/html_data.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

using namespace lowertrace;
using nlohmann::json;

namespace {

Snapshot snap(std::string t, std::uint32_t id) {
  auto d = std::make_shared<SnapshotData>();
  d->text = std::move(t);
  d->hash_hi = std::hash<std::string>{}(d->text);
  d->hash_lo = d->text.size() + 1;
  d->id = id;
  return d;
}

std::string fix_utf8(const std::string &s) {
  // What valid_utf8 does, through nlohmann's replacing serialiser.
  return json::parse(json(s).dump(-1, ' ', false, json::error_handler_t::replace)).get<std::string>();
}

// The records the old tree-building code saw, every field exercised.
std::vector<LowerRecord> sample_records() {
  std::vector<LowerRecord> v;
  Snapshot a = snap("define void @f() {\n  ret void\n}\n", 0);
  Snapshot b = snap("define void @f() {\n  %1 = add i32 0, 0\n  ret void\n}\n", 1);
  Snapshot c = snap("x\n", 2);
  auto rel = std::make_shared<SnapshotData>(*c);
  rel->text.clear();
  rel->released = true;
  rel->released_size = 2;
  LowerRecord r;
  r.phase = "llvm";
  r.name = "InstCombinePass";
  r.index = 0;
  r.before = a;
  r.after = b;
  r.changed = true;
  r.add_lines = 1;
  r.wall_ms = 0.12345678;
  r.anchor = "f";
  r.detail = "instcombine<max-iterations=1;verify-fixpoint>";
  r.ir_lang = "llvm";
  v.push_back(r);
  r = {};
  r.phase = "llvm";
  r.name = "quote\"back\\slash\nnewline\ttab\x01<tag>&amp;";
  r.index = 1;
  r.parent_index = 0;
  r.depth = 1;
  r.before = b;
  r.after = b;
  r.wall_ms = 12;
  r.anchor = "caf\xc3\xa9 \xe2\x80\xa8 bad\xff\xfe utf8";
  r.detail = "\xe2\x80\xa9";
  r.ir_lang = "llvm";
  r.lang = "mir";
  r.before_file = "llvm/000000_InstCombinePass_after.ll";
  v.push_back(r);
  r = {};
  r.phase = "run2_llvm";
  r.name = "SROAPass";
  r.index = 2;
  r.status = std::string(STATUS_FAILED);
  r.error_msg = "crashed: SIGSEGV\nin <f>";
  r.before = rel;
  r.wall_ms = -1;
  r.ir_lang = "llvm";
  v.push_back(r);
  r = {};
  r.phase = "llvm";
  r.name = "one-sided";
  r.index = 3;
  r.before_known = false;
  r.after = c;
  r.wall_ms = 1e-7;
  r.after_file = "llvm/000002_x.ll";
  v.push_back(r);
  r = {};
  r.phase = "llvm";
  r.name = "skipped";
  r.index = 4;
  r.status = std::string(STATUS_SKIPPED);
  r.before = c;
  r.after = c;
  r.wall_ms = 123456789.5;
  v.push_back(r);
  return v;
}

// trace.json as the tree-building serialiser made it (root.dump(1)).
std::string tree_trace_json(const RunInfo &run, const std::vector<const LowerRecord *> &recs,
                            const std::string &error) {
  json root;
  root["format"] = "lowertrace-trace";
  root["version"] = trace_json::kVersion;
  root["script"] = fix_utf8(run.script);
  root["run_id"] = run.run_id;
  root["tool"] = fix_utf8(run.tool);
  root["input"] = fix_utf8(run.input);
  root["mode"] = std::string(to_string(run.mode));
  root["started"] = run.started;
  root["error"] = fix_utf8(error);
  root["snapshots"] = json::array();
  root["records"] = json::array();
  std::set<std::uint32_t> seen;
  for (const LowerRecord *r : recs) {
    json j;
    j["phase"] = fix_utf8(r->phase);
    j["name"] = fix_utf8(r->name);
    j["index"] = r->index;
    j["changed"] = r->changed;
    j["add_lines"] = r->add_lines;
    j["del_lines"] = r->del_lines;
    j["status"] = r->status;
    j["error_msg"] = fix_utf8(r->error_msg);
    j["before_known"] = r->before_known;
    j["depth"] = r->depth;
    j["parent_index"] = r->parent_index < 0 ? json(nullptr) : json(r->parent_index);
    j["wall_ms"] = r->wall_ms < 0 ? json(nullptr) : json(r->wall_ms);
    j["anchor"] = fix_utf8(r->anchor);
    j["detail"] = fix_utf8(r->detail);
    j["ir_lang"] = r->ir_lang;
    j["lang"] = r->lang.empty() ? r->ir_lang : r->lang;
    auto side = [&](const Snapshot &s, bool after) -> json {
      if (!s) return nullptr;
      const std::string &own = after ? r->after_file : r->before_file;
      std::string file = own.empty() ? layout::raw_file_path(*r, after) : own;
      if (seen.insert(s->id).second) {
        char hash[40];
        std::snprintf(hash, sizeof hash, "%016llx%016llx", static_cast<unsigned long long>(s->hash_hi),
                      static_cast<unsigned long long>(s->hash_lo));
        root["snapshots"].push_back({{"id", s->id}, {"hash", hash}, {"bytes", s->size()}, {"file", file}});
      }
      return json{{"snapshot", s->id}, {"file", std::move(file)}};
    };
    j["before_text"] = side(r->before, false);
    j["after_text"] = side(r->after, true);
    root["records"].push_back(std::move(j));
  }
  return root.dump(1) + "\n";
}

// The report's record metadata as the tree-building code made it.
json tree_record_json(const LowerRecord &r, int b, int a, int noise, bool files) {
  json j = {{"i", r.index},     {"p", r.phase},  {"n", r.name},       {"s", r.status},
            {"c", r.changed},   {"a", r.add_lines}, {"d", r.del_lines}, {"dp", r.depth},
            {"pi", r.parent_index}, {"b", b},    {"f", a}};
  if (noise > 0) j["z"] = noise;
  if (!r.error_msg.empty()) j["e"] = r.error_msg;
  if (!r.before_known) j["nb"] = 1;
  if (r.wall_ms >= 0) j["ms"] = std::round(r.wall_ms * 1000) / 1000;
  if (!r.anchor.empty()) j["an"] = r.anchor;
  if (!r.ir_lang.empty()) j["il"] = r.ir_lang;
  if (!r.lang.empty()) j["l"] = r.lang;
  if (!r.detail.empty()) j["dt"] = r.detail;
  if (files && !r.before_file.empty()) j["bf"] = r.before_file;
  if (files && !r.after_file.empty()) j["af"] = r.after_file;
  return j;
}

TEST(HandwrittenJson, TraceJsonIsTheTreeDumpByteForByte) {
  auto recs = sample_records();
  std::vector<const LowerRecord *> all;
  for (const auto &r : recs) all.push_back(&r);
  RunInfo run;
  run.script = "shapes";
  run.run_id = "run_x";
  run.tool = "llvm-plugin";
  run.input = "dir/sh\"apes\xff.cpp";
  run.mode = Mode::Html;
  run.started = "2026-12-03T16:00:00Z";
  for (const std::string &error : {std::string(), std::string("llvm/002_SROAPass failed: \"x\"")})
    EXPECT_EQ(trace_json::serialize(run, all, error), tree_trace_json(run, all, error));
  EXPECT_EQ(trace_json::serialize(run, {}, ""), tree_trace_json(run, {}, ""));
}

TEST(HandwrittenJson, ReportRecordTextIsTheTreeDumpByteForByte) {
  auto recs = sample_records();
  for (bool files : {false, true}) {
    report::ReportData data, keys;
    for (const auto &r : recs) {
      std::string text = data.record_text(r, nullptr, files);
      // The same snapshot keys and noise count as the record's JSON gives.
      json j = keys.record_json(r);
      EXPECT_EQ(text, report::codec::script_safe_json(tree_record_json(
                          r, j["b"].get<int>(), j["f"].get<int>(), j.value("z", 0), files)))
          << r.name;
    }
  }
}

}  // namespace
