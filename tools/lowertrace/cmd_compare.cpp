// `lowertrace compare <runA> <runB>`: one report for two runs of a compiler
// (two versions, two flag sets, two autotune variants, before and after a
// patch). The two pass sequences are aligned by the line diff the engine uses
// for IR, over one key per pass (name and what it ran on); each aligned pair
// becomes a record whose before is A's output and after is B's, so the normal
// viewer shows where the runs' IR differs. Passes present in one run only are
// marked, and the report opens on the first aligned pass whose outputs differ.
#include "command.h"
#include "manual.h"
#include "lowertrace/diff.h"
#include "lowertrace/record.h"
#include "lowertrace/sink.h"
#include "report/html_data.h"
#include "report/html_page.h"
#include "util/fs.h"
#include "util/log.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using lowertrace::LowerRecord;
using lowertrace::Snapshot;

constexpr const char *kUsage =
    "usage: lowertrace compare <runA> <runB> [-o REPORT.html]\n"
    "\n"
    "A run is a run folder (holding trace.json and its raw files), its trace.json,\n"
    "or a script folder (its newest run). Writes one HTML report that aligns the\n"
    "two pass sequences, marks passes present in only one run, and opens on the\n"
    "first pass whose output differs, as the diff of A's output against B's.\n"
    "  -o, --out   report path (default: ./lowertrace-compare.html)\n";

struct Pass {
  std::string phase, name, anchor, status, error, ir_lang, lang;
  int index = 0, depth = 0, parent = -1;
  std::string output;  // after text, or before text when there is none (failed)
};
struct Run {
  std::string dir, label;
  std::vector<Pass> passes;
};

std::optional<std::string> slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Resolves a run argument to its run folder.
std::string run_dir(const std::string &arg, std::string &err) {
  fs::path p(arg);
  std::error_code ec;
  if (fs::is_regular_file(p, ec) && p.filename() == "trace.json") return p.parent_path().string();
  if (fs::exists(p / "trace.json", ec)) return p.string();
  if (fs::is_directory(p / ".run_records", ec)) {
    std::vector<std::string> runs;
    for (const auto &e : fs::directory_iterator(p / ".run_records", ec))
      if (fs::exists(e.path() / "trace.json")) runs.push_back(e.path().string());
    // run_<YYYYmmdd_HHMMSS_ffffff>_...: the name order is the time order.
    if (!runs.empty()) return *std::max_element(runs.begin(), runs.end());
  }
  err = arg + ": not a run folder (no trace.json)";
  return {};
}

std::optional<Run> load(const std::string &arg, std::string &err) {
  Run run;
  run.dir = run_dir(arg, err);
  if (run.dir.empty()) return std::nullopt;
  auto text = slurp(fs::path(run.dir) / "trace.json");
  if (!text) return err = run.dir + "/trace.json: cannot read", std::nullopt;
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || j.value("format", "") != "lowertrace-trace" || j.value("version", 0) != 1)
    return err = run.dir + "/trace.json: not a lowertrace trace (format version 1)", std::nullopt;
  run.label = j.value("tool", "") + (j.value("input", "").empty() ? "" : " " + j.value("input", ""));
  for (const auto &r : j.at("records")) {
    Pass p;
    p.phase = r.value("phase", "");
    p.name = r.value("name", "");
    p.anchor = r.value("anchor", "");
    p.status = r.value("status", "completed");
    p.error = r.value("error_msg", "");
    p.ir_lang = r.value("ir_lang", "");
    p.lang = r.value("lang", "");
    p.index = r.value("index", 0);
    p.depth = r.value("depth", 0);
    p.parent = r["parent_index"].is_number() ? r["parent_index"].get<int>() : -1;
    const auto &side = r["after_text"].is_object() ? r["after_text"] : r["before_text"];
    if (side.is_object()) {
      auto t = slurp(fs::path(run.dir) / side.value("file", ""));
      if (!t) return err = run.dir + "/" + side.value("file", "") + ": cannot read", std::nullopt;
      p.output = std::move(*t);
    }
    run.passes.push_back(std::move(p));
  }
  return run;
}

// What identifies a pass across runs: its name and what it ran on, without
// the per-run counts of an aggregated anchor ("func.func x2000 (3 changed)").
std::string key(const Pass &p) {
  static const std::regex counts(R"( \([0-9]+ (changed|failed)[^)]*\)$)");
  return p.name + " @ " + std::regex_replace(p.anchor, counts, "");
}

struct Builder {
  std::vector<std::unique_ptr<LowerRecord>> recs;
  std::vector<int> map_a, map_b;  // pass position -> record index
  Snapshot intern(const std::string &t) {
    auto s = std::make_shared<lowertrace::SnapshotData>();
    s->text = t;
    return s;
  }
  LowerRecord &add(const Pass &like) {
    auto r = std::make_unique<LowerRecord>();
    r->index = static_cast<int>(recs.size());
    r->phase = like.phase;
    r->name = like.name;
    r->anchor = like.anchor;
    r->depth = like.depth;
    r->ir_lang = like.ir_lang;
    r->lang = like.lang == like.ir_lang ? "" : like.lang;
    r->wall_ms = -1;  // no times: a comparison is not a run
    recs.push_back(std::move(r));
    return *recs.back();
  }
};

int run_compare(int argc, char **argv) {
  std::vector<std::string> args;
  std::string out = "lowertrace-compare.html";
  for (int k = 1; k < argc; ++k) {
    std::string a = argv[k];
    if (a == "-h" || a == "--help") return lowertrace::cli::print_command_manual("compare");
    if (a == "-o" || a == "--out") {
      if (k + 1 >= argc) return lowertrace::util::info("compare: " + a + " needs a path"), std::fputs(kUsage, stderr), 2;
      out = argv[++k];
    } else if (a.rfind("--out=", 0) == 0) {
      out = a.substr(6);
    } else if (a.rfind("-", 0) == 0 && a.size() > 1) {
      return lowertrace::util::info("compare: unknown option " + a), std::fputs(kUsage, stderr), 2;
    } else {
      args.push_back(a);
    }
  }
  if (args.size() != 2) return lowertrace::util::info("compare: needs two runs"), std::fputs(kUsage, stderr), 2;
  std::string err;
  // Both arguments checked before either run is read (a run can be large).
  for (const auto &a : args)
    if (run_dir(a, err).empty()) return lowertrace::util::warn("compare: " + err), 1;
  auto A = load(args[0], err);
  auto B = A ? load(args[1], err) : std::nullopt;
  if (!A || !B) return lowertrace::util::warn("compare: " + err), 1;

  std::vector<std::string> ka, kb;
  for (const auto &p : A->passes) ka.push_back(key(p));
  for (const auto &p : B->passes) kb.push_back(key(p));
  std::vector<std::string_view> va(ka.begin(), ka.end()), vb(kb.begin(), kb.end());
  auto ops = lowertrace::diff::diff_lines(va, vb);

  Builder bld;
  bld.map_a.assign(A->passes.size(), -1);
  bld.map_b.assign(B->passes.size(), -1);
  int first_diff = -1, first_only = -1, differ = 0, only_a = 0, only_b = 0, same = 0;
  auto parent = [&](const Pass &p, const std::vector<int> &map) {
    return p.parent >= 0 && p.parent < static_cast<int>(map.size()) ? map[p.parent] : -1;
  };
  auto only = [&](const Pass &p, const char *which, int pos, std::vector<int> &map) {
    LowerRecord &r = bld.add(p);
    r.status = std::string(lowertrace::STATUS_SKIPPED);
    r.error_msg = fmt::format("only in run {} (its pass #{})", which, p.index);
    r.before = r.after = bld.intern(p.output);
    r.parent_index = parent(p, map);
    r.detail = fmt::format("only in {}", which);
    map[pos] = r.index;
    if (first_only < 0) first_only = r.index;
  };
  for (const auto &op : ops) {
    for (std::uint32_t k = 0; k < op.a_len && op.kind != op.Equal; ++k)
      only(A->passes[op.a_pos + k], "A", op.a_pos + k, bld.map_a), ++only_a;
    for (std::uint32_t k = 0; k < op.b_len && op.kind != op.Equal; ++k)
      only(B->passes[op.b_pos + k], "B", op.b_pos + k, bld.map_b), ++only_b;
    if (op.kind != op.Equal) continue;
    for (std::uint32_t k = 0; k < op.a_len; ++k) {
      const Pass &a = A->passes[op.a_pos + k], &b = B->passes[op.b_pos + k];
      LowerRecord &r = bld.add(a);
      r.before = bld.intern(a.output);
      r.after = r.before->text == b.output ? r.before : bld.intern(b.output);
      r.changed = r.before != r.after;
      auto st = lowertrace::diff::stats(a.output, b.output);
      r.add_lines = r.changed ? st.add_lines : 0;
      r.del_lines = r.changed ? st.del_lines : 0;
      r.parent_index = parent(a, bld.map_a);
      r.detail = fmt::format("A #{} · B #{}", a.index, b.index);
      if (a.status != b.status) {
        r.status = std::string(lowertrace::STATUS_FAILED);
        r.error_msg = fmt::format("run A: {}{}\nrun B: {}{}", a.status, a.error.empty() ? "" : " (" + a.error + ")",
                                  b.status, b.error.empty() ? "" : " (" + b.error + ")");
      }
      bld.map_a[op.a_pos + k] = bld.map_b[op.b_pos + k] = r.index;
      if (r.changed || r.status != lowertrace::STATUS_COMPLETED) {
        ++differ;
        if (first_diff < 0) first_diff = r.index;
      } else {
        ++same;
      }
    }
  }

  lowertrace::RunInfo run;
  run.script = "compare";
  run.tool = "lowertrace compare";
  run.input = "A: " + A->dir + "  B: " + B->dir;
  nlohmann::json extra = {{"labels", {"Run A", "Run B"}},
                          {"compare", {{"a", A->dir}, {"b", B->dir}, {"a_label", A->label},
                                       {"b_label", B->label}, {"only_a", only_a}, {"only_b", only_b},
                                       {"differ", differ}, {"same", same}, {"first", first_diff}}}};
  int open = first_diff >= 0 ? first_diff : first_only;
  if (open >= 0) extra["open"] = open;
  std::vector<const LowerRecord *> view;
  for (const auto &r : bld.recs) view.push_back(r.get());
  // Each record's before (A's output) is stored as a line delta against the
  // previous record's texts, as consecutive passes of one run are; stored
  // whole, a 200-pass comparison was 11x the size of either run's report.
  lowertrace::report::ReportData data;
  Snapshot prev;
  for (const auto *r : view) {
    data.ref(r->before, prev);
    prev = r->after ? r->after : r->before;
  }
  std::string html = lowertrace::report::page::final_page(run, view, data, "", extra);
  if (std::string e = lowertrace::util::atomic_write(out, html); !e.empty())
    return lowertrace::util::warn("compare: " + e), 1;
  std::string first = first_diff >= 0 ? fmt::format("first difference at #{} {}", first_diff,
                                                    bld.recs[first_diff]->name)
                                      : "no aligned pass differs";
  lowertrace::util::info(fmt::format("compare: {} aligned passes ({} differ), {} only in A, {} only in B; {}",
                                     same + differ, differ, only_a, only_b, first));
  lowertrace::util::info("compare: report " + out);
  return 0;
}

}  // namespace

LOWERTRACE_COMMAND(compare, "compare", "one report comparing two runs pass by pass", run_compare);
