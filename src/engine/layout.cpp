#include "engine/layout.h"

#include "engine/codegen_workflow.h"
#include "engine/trace_json.h"
#include "util/fs.h"
#include "util/log.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <random>
#include <unistd.h>
#include <unordered_map>

namespace lowertrace::layout {

std::string now_iso8601() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string make_run_id() {
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  auto us = std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count() %
            1000000;
  std::tm tm{};
  localtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d_%H%M%S", &tm);
  static std::mt19937 rng{std::random_device{}()};
  static std::mutex mu;
  unsigned r;
  {
    std::lock_guard<std::mutex> lock(mu);
    r = rng();
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "run_%s_%06lld_%d_%08x", stamp, static_cast<long long>(us),
                static_cast<int>(::getpid()), r);
  return buf;
}

std::string pad_index(int index) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%03d", index);
  return buf;
}

std::string raw_file_name(const LowerRecord &rec, bool after) {
  std::string_view lang = after && !rec.lang.empty() ? rec.lang : rec.ir_lang;
  std::string name = rec.status == STATUS_CODEGEN ? std::string("codegen") : rec.name;
  return pad_index(rec.index) + "_" + util::sanitize_component(name) +
         (after ? "_after." : "_before.") + codegen::extension_for(lang);
}

std::string raw_file_path(const LowerRecord &rec, bool after) {
  return util::sanitize_component(rec.phase) + "/" + raw_file_name(rec, after);
}

namespace {

class LayoutSink : public Sink {
public:
  void on_record(const RunInfo &run, const LowerRecord &rec,
                 const std::vector<const LowerRecord *> &) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (broken_) return;
    std::string dir = run.run_dir + "/" + util::sanitize_component(rec.phase);
    if (std::string err = util::make_dirs(dir); !err.empty()) return fail(err);
    write(run, rec.before, raw_file_path(rec, false));
    // A failed pass has no after-text; its record says so.
    if (rec.status != STATUS_FAILED) write(run, rec.after, raw_file_path(rec, true));
  }

  void on_finish(const RunInfo &run, const std::vector<const LowerRecord *> &all,
                 const std::string &error) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (broken_) return;
    if (std::string err = util::make_dirs(run.run_dir); !err.empty()) return fail(err);
    std::string json = trace_json::serialize(run, all, error);
    if (std::string err = util::atomic_write(run.run_dir + "/trace.json", json); !err.empty())
      fail(err);
  }

private:
  void write(const RunInfo &run, const Snapshot &snap, const std::string &rel) {
    if (!snap) return;
    std::string path = run.run_dir + "/" + rel;
    // Never write through an existing name: it may be a hard link to another file.
    ::unlink(path.c_str());
    auto it = first_path_.find(snap->id);
    if (it != first_path_.end() && ::link(it->second.c_str(), path.c_str()) == 0) return;
    if (std::string err = util::write_file(path, snap->text); !err.empty()) return fail(err);
    first_path_.emplace(snap->id, path);
  }
  void fail(const std::string &err) {
    // One warning, then stop trying: a full disk must not spam every pass.
    broken_ = true;
    util::warn("could not save raw trace files: " + err);
  }

  std::mutex mu_;
  bool broken_ = false;
  std::unordered_map<std::uint32_t, std::string> first_path_;
};

}  // namespace

std::shared_ptr<Sink> make_layout_sink() { return std::make_shared<LayoutSink>(); }

}  // namespace lowertrace::layout
