#include "engine/stale_runs.h"

#include "lowertrace/session.h"

#include "engine/layout.h"
#include "engine/snapshot_store.h"
#include "engine/trace_json.h"
#include "report/html.h"
#include "report/html_page.h"
#include "util/fs.h"
#include "util/log.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <dirent.h>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <unistd.h>

namespace lowertrace::stale_runs {

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char *kKilled =
    "killed: the compiler ended without finishing this run (finished by the next run)";

// The live shell's metadata: the run it belongs to.
bool read_run(const std::string &run_dir, RunInfo &run) {
  auto html = util::read_file(run_dir + "/report.html");
  if (!html) return false;
  const std::string open = "id=\"lt-meta\">";
  size_t a = html->find(open);
  size_t b = a == std::string::npos ? a : html->find("</script>", a);
  if (b == std::string::npos) return false;
  json meta = json::parse(html->substr(a + open.size(), b - a - open.size()), nullptr, false);
  if (!meta.is_object() || !meta.value("live", false) || !meta.contains("run")) return false;
  const json &r = meta["run"];
  run.script = r.value("script", "");
  run.input = r.value("input", "");
  run.tool = r.value("tool", "");
  run.mode = parse_mode(r.value("mode", "html"));
  run.started = r.value("started", "");
  run.run_id = r.value("run_id", "");
  return !run.run_id.empty();
}

// Records from report_data/NNNNNN.js, in order, until one is missing.
std::vector<json> read_chunks(const std::string &dir) {
  std::vector<json> recs;
  for (int n = 0;; ++n) {
    char name[32];
    std::snprintf(name, sizeof name, "/%06d.js", n);
    auto js = util::read_file(dir + name);
    const std::string head = "__ltChunk(", tail = ");\n";
    if (!js || js->size() < head.size() + tail.size() || js->compare(0, head.size(), head) != 0)
      break;
    json c = json::parse(js->substr(head.size(), js->size() - head.size() - tail.size()), nullptr,
                         false);
    if (!c.is_object() || !c["recs"].is_array()) break;
    for (auto &r : c["recs"]) recs.push_back(std::move(r));
  }
  return recs;
}

LowerRecord record_of(const json &j) {
  LowerRecord r;
  r.index = j.value("i", 0);
  r.phase = j.value("p", "");
  r.name = j.value("n", "");
  r.status = j.value("s", std::string(STATUS_COMPLETED));
  r.changed = j.value("c", false);
  r.add_lines = j.value("a", 0);
  r.del_lines = j.value("d", 0);
  r.depth = j.value("dp", 0);
  r.parent_index = j.value("pi", -1);
  r.error_msg = j.value("e", "");
  r.wall_ms = j.value("ms", 0.0);
  r.anchor = j.value("an", "");
  r.ir_lang = j.value("il", "");
  r.lang = j.value("l", "");
  r.detail = j.value("dt", "");
  r.before_file = j.value("bf", "");
  r.after_file = j.value("af", "");
  return r;
}

void finish_one(const std::string &script_dir, const std::string &run_dir) {
  RunInfo run;
  if (!read_run(run_dir, run)) return;
  run.script_dir = script_dir;
  run.run_dir = run_dir;
  std::vector<LowerRecord> recs;
  SnapshotStore store;
  for (const json &j : read_chunks(run_dir + "/report_data")) {
    LowerRecord r = record_of(j);
    // The texts are the raw files; one the writer never got to stays unknown.
    auto text = [&](bool after) -> Snapshot {
      const std::string &own = after ? r.after_file : r.before_file;
      auto t = util::read_file(run_dir + "/" + (own.empty() ? layout::raw_file_path(r, after) : own));
      return t ? store.intern(std::move(*t)) : nullptr;
    };
    r.before = text(false);
    if (r.status != STATUS_FAILED) r.after = text(true);
    recs.push_back(std::move(r));
  }
  std::vector<const LowerRecord *> all;
  for (const auto &r : recs) all.push_back(&r);
  std::string error = kKilled;
  if (auto err = util::atomic_write(run_dir + "/trace.json", trace_json::serialize(run, all, error));
      !err.empty())
    return util::warn("finishing a killed run: " + err);
  if (wants_html(run.mode)) {
    report::ReportData data;
    std::string html = report::page::final_page(run, all, data, error);
    if (auto err = util::atomic_write(run_dir + "/report.html", html); !err.empty())
      return util::warn("finishing a killed run: " + err);
  }
  std::error_code ec;
  fs::remove_all(run_dir + "/report_data", ec);
  util::info("finished the killed run " + run_dir + " (" + std::to_string(recs.size()) +
             " records)");
}
}  // namespace

int finish_stale(const std::string &script_dir) {
  std::string runs = script_dir + "/.run_records";
  DIR *d = ::opendir(runs.c_str());
  if (!d) return 0;
  std::vector<std::string> names;
  while (dirent *e = ::readdir(d))
    if (std::string_view(e->d_name).rfind("run_", 0) == 0) names.emplace_back(e->d_name);
  ::closedir(d);
  int n = 0;
  for (const std::string &name : names) {
    std::string run_dir = runs + "/" + name;
    if (::access((run_dir + "/trace.json").c_str(), F_OK) == 0) continue;
    // Chunk 0 is written after the writer took the lock: without it the
    // writer may be starting up.
    if (::access((run_dir + "/report_data/000000.js").c_str(), F_OK) != 0) continue;
    std::string lock = run_dir + "/report_data/" + report::kWriterLock;
    int fd = ::open(lock.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) continue;  // an older writer without a lock: no verdict
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {  // free: its writer is gone
      try {
        finish_one(script_dir, run_dir);
        ++n;
      } catch (const std::exception &e) {
        util::warn(std::string("finishing a killed run: ") + e.what());
      }
    }
    ::close(fd);
  }
  return n;
}

}  // namespace lowertrace::stale_runs
