#include "engine/layout.h"

#include <filesystem>

#include "engine/codegen_workflow.h"
#include "engine/trace_json.h"
#include "util/batch_wait.h"
#include "util/fatal.h"
#include "util/fs.h"
#include "util/log.h"

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <thread>
#include <unordered_set>
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

std::string file_index(int index) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%06d", index);
  return buf;
}

std::string trace_root(const std::string &script_dir) {
  std::string root = std::filesystem::path(script_dir).parent_path().string();
  return root.empty() ? std::string(".") : root;
}

std::string raw_file_name(const LowerRecord &rec, bool after) {
  std::string_view lang = after && !rec.lang.empty() ? rec.lang : rec.ir_lang;
  std::string name = rec.status == STATUS_CODEGEN ? std::string("codegen") : rec.name;
  return file_index(rec.index) + "_" + util::sanitize_component(name) +
         (after ? "_after." : "_before.") + codegen::extension_for(lang);
}

std::string raw_file_path(const LowerRecord &rec, bool after) {
  return util::sanitize_component(rec.phase) + "/" + raw_file_name(rec, after);
}

namespace {

// Raw files are written by a background thread, in record order, so that
// creating thousands of small files overlaps with the compiler's own work
// instead of adding to it. on_finish() waits for the queue before writing
// trace.json, so a finished run is always complete on disk.
class LayoutSink : public Sink {
public:
  explicit LayoutSink(bool per_text) : per_text_(per_text) {}
  ~LayoutSink() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (worker_.joinable()) worker_.join();
  }

  void on_record(const RunInfo &run, const LowerRecord &rec, const RecordList &) override {
    std::string dir = run.run_dir + "/" + util::sanitize_component(rec.phase);
    Job before{run.script_dir, dir, rec.before, run.run_dir + "/" + raw_file_path(rec, false)};
    std::unique_lock<std::mutex> lock(mu_);
    // Bounded queue: a producer faster than the disk (an import) waits here
    // instead of holding every text that is still to be written.
    space_cv_.wait(lock, [this] { return queued_bytes_ < kMaxQueuedBytes || broken_; });
    if (broken_) return;
    std::size_t queued = q_.size();
    auto push = [this](Job &&j) {
      if (j.snap) queued_bytes_ += j.snap->text.size();
      q_.push_back(std::move(j));
    };
    // A side whose text has a file already (SessionOptions::raw_file_per_text) gets none.
    if (rec.before_file.empty()) push(std::move(before));
    // A failed pass has no after-text unless the IR after the failure is known.
    if ((rec.status != STATUS_FAILED || rec.after) && rec.after_file.empty())
      push(Job{run.script_dir, dir, rec.after, run.run_dir + "/" + raw_file_path(rec, true)});
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    // Wake the worker only when it waits, and then once per batch
    // (util/batch_wait.h): a busy one takes the whole queue on its next round.
    if (waiting_ && util::BatchWait::wake(queued, q_.size(), queued_bytes_ >= kMaxQueuedBytes))
      cv_.notify_one();
  }

  void on_finish(const RunInfo &run, const RecordList &all, const std::string &error) override {
    std::unique_lock<std::mutex> lock(mu_);
    auto idle = [this] { return q_.empty() && !busy_; };
    finishing_ = true;  // the worker stops gathering a batch
    cv_.notify_one();
    // After a crash the worker may be the thread that crashed: wait a while,
    // then write trace.json for whatever is on disk.
    if (util::in_fatal_signal()) idle_cv_.wait_for(lock, std::chrono::seconds(10), idle);
    else idle_cv_.wait(lock, idle);
    if (broken_) return;
    if (std::string err = util::make_dirs_below(trace_root(run.script_dir), run.run_dir); !err.empty())
      return fail(err);
    if (std::string err = trace_json::write(run.run_dir + "/trace.json", run, all, error); !err.empty())
      fail(err);
  }

private:
  struct Job {
    std::string script_dir;
    std::string dir;
    Snapshot snap;
    std::string path;
  };

  void work() {
    std::unique_lock<std::mutex> lock(mu_);
    std::deque<Job> batch;
    for (;;) {
      waiting_ = true;
      util::BatchWait::wait(
          cv_, lock, [this] { return stop_; }, [this] { return q_.size(); },
          [this] { return finishing_ || queued_bytes_ >= kMaxQueuedBytes; });
      waiting_ = false;
      if (q_.empty()) return;  // stop_ and nothing left
      batch.swap(q_);
      busy_ = true;
      lock.unlock();
      std::string err;
      std::uint64_t done = 0;
      for (const Job &job : batch) {
        if (job.snap) done += job.snap->text.size();
        if (err.empty()) err = write(job);
      }
      batch.clear();
      lock.lock();
      busy_ = false;
      queued_bytes_ -= done;
      space_cv_.notify_all();
      if (!err.empty() && !broken_) fail(err);
      if (broken_) {
        q_.clear();
        queued_bytes_ = 0;
      }
      if (q_.empty()) idle_cv_.notify_all();
    }
  }

  // Runs on the worker only; first_path_ and made_ are the worker's.
  std::string write(const Job &job) {
    if (!job.snap) return "";
    if (made_.insert(job.dir).second)
      if (std::string err = util::make_dirs_below(trace_root(job.script_dir), job.dir); !err.empty())
        return err;
    // Names are unique within a run folder, so the link or create normally
    // succeeds at once. Never write through an existing name: it may be a
    // hard link to another file; replace it instead.
    auto it = first_path_.find(job.snap->id);
    if (it != first_path_.end()) {
      if (::link(it->second.c_str(), job.path.c_str()) == 0) return "";
      if (errno == EEXIST && ::unlink(job.path.c_str()) == 0 &&
          ::link(it->second.c_str(), job.path.c_str()) == 0)
        return "";
    }
    if (job.snap->released) return "";  // no text to write (never happens: sinks get texts first)
    if (std::string err = util::create_file(job.path, job.snap->text); !err.empty()) return err;
    // The newest copy is the one to link to: when a file system's link limit
    // (ext4: 65,000) stops links to the first, later ones link to this one
    // instead of each becoming another full copy.
    if (!per_text_) first_path_.insert_or_assign(job.snap->id, job.path);
    return "";
  }
  void fail(const std::string &err) {
    // One warning, then stop trying: a full disk must not spam every pass.
    broken_ = true;
    util::warn("could not save raw trace files: " + err);
  }

  std::mutex mu_;
  std::condition_variable cv_, idle_cv_, space_cv_;
  static constexpr std::uint64_t kMaxQueuedBytes = 64u << 20;
  std::uint64_t queued_bytes_ = 0;
  std::deque<Job> q_;
  std::thread worker_;
  bool stop_ = false, busy_ = false, broken_ = false, waiting_ = false, finishing_ = false;
  const bool per_text_;
  std::unordered_map<std::uint32_t, std::string> first_path_;  // not kept when per_text_
  std::unordered_set<std::string> made_;
};

}  // namespace

std::shared_ptr<Sink> make_layout_sink(bool per_text) { return std::make_shared<LayoutSink>(per_text); }

}  // namespace lowertrace::layout
