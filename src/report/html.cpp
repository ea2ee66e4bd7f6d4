// The HTML sink: chunk files while the run is live, one self-contained page at
// the end. See html_page.h for the two page kinds.
//
// Bytes written: the shell once, each record's chunk once (it carries only the
// snapshots that record introduced), the final page once. So the total is
// about 2x the final report plus one viewer, never O(n^2).
#include "report/html.h"

#include "report/heartbeat.h"
#include "report/html_page.h"
#include "util/batch_wait.h"
#include "util/fatal.h"
#include "util/fs.h"
#include "util/log.h"

#include <chrono>
#include <functional>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <optional>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace lowertrace::report {

namespace fs = std::filesystem;

namespace {

// Below the trace folder no symbolic link is followed (see util::make_dirs_below).
std::string trace_root(const RunInfo &run) {
  std::string root = fs::path(run.script_dir).parent_path().string();
  return root.empty() ? std::string(".") : root;
}

// Points <script_dir>/report.html at the run's report: a relative symlink
// swapped in by rename (atomic), or a copy of `content` where symlinks fail
// (null `content`: a copy of the run's report.html as written).
void point_latest(const RunInfo &run, const std::string *content, std::uint64_t *written) {
  if (run.script_dir.empty()) return;
  std::string link = run.script_dir + "/report.html";
  std::error_code ec;
  fs::path target = fs::relative(fs::path(run.run_dir) / "report.html", run.script_dir, ec);
  if (!ec && !target.empty()) {
    std::string tmp = link + ".tmp-link." + std::to_string(::getpid());
    ::unlink(tmp.c_str());  // removes a stale or planted name; never follows it
    if (::symlink(target.c_str(), tmp.c_str()) == 0) {
      if (::rename(tmp.c_str(), link.c_str()) == 0) return;
      ::unlink(tmp.c_str());
    }
  }
  std::optional<std::string> copy;
  if (!content) {
    copy = util::read_file(run.run_dir + "/report.html");
    if (!copy) return util::warn("html report: cannot read " + run.run_dir + "/report.html");
    content = &*copy;
  }
  std::string err = util::atomic_write(link, *content);
  if (!err.empty()) util::warn("html report: " + err);
  else if (written) *written += content->size();
}

class HtmlSink final : public Sink {
public:
  HtmlSink(bool live, int chunk_ms) : live_(live), chunk_ms_(chunk_ms) {}
  void on_record(const RunInfo &run, const LowerRecord &rec, const RecordList &) override {
    if (live_ && chunk_ms_ > 0 && wants_html(run.mode)) return queue(run, rec);
    std::lock_guard<std::mutex> lock(mu_);
    take(run, rec);
  }

  // Stores a record (its snapshots compressed, deltas and noise worked out)
  // and writes the chunk that is due. mu_ held.
  void take(const RunInfo &run, const LowerRecord &rec) {
    if (!wants_html(run.mode) || broken_) return;
    // The source lines its locations name are looked for now, while the
    // record has its texts: a session may release them after this call, and
    // the final page then sees stand-ins (each text is scanned once).
    data_.refs.add(rec.before);
    data_.refs.add(rec.after);
    if (!live_) {
      // Store the record's texts now, for the same reason; the final page
      // finds them by hash.
      data_.record_text(rec);
      return;
    }
    // With where a killed run's texts are found (engine/stale_runs.h); the final page needs no paths.
    pending_.push_back(data_.record_text(rec, &pending_fresh_, /*files=*/true));
    // One chunk per record is a file created and renamed per pass (tens of
    // thousands for clang -O2 on one C++ file). With chunk_ms_ records are
    // batched: a chunk at most every chunk_ms_, the first one at once so that
    // the shell appears with the first pass, and the heartbeat writes what
    // waits during a long pass. A killed compiler loses at most the records
    // of the last beat (a crash handler writes the final page).
    auto now = std::chrono::steady_clock::now();
    if (chunk_ms_ > 0 && seq_ > 0 && now - last_chunk_ < std::chrono::milliseconds(chunk_ms_)) return;
    last_chunk_ = now;
    flush_chunk(run);
  }

  void flush_chunk(const RunInfo &run) {
    if (pending_.empty()) return;
    std::string dir = run.run_dir + "/report_data";
    if (seq_ == 0) {
      if (auto err = util::make_dirs_below(trace_root(run), dir); !err.empty())
        return fail(err);
      // Held until the run is final; the next run in this folder finishes a
      // run whose lock is free (engine/stale_runs.h). Before chunk 0.
      lock_fd_ = ::open((dir + "/" + kWriterLock).c_str(),
                        O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
      if (lock_fd_ >= 0) ::flock(lock_fd_, LOCK_EX | LOCK_NB);
    }
    char name[32];
    std::snprintf(name, sizeof name, "/%06d.js", seq_);
    std::string chunk = page::chunk_js(pending_, data_, pending_fresh_);
    pending_.clear();
    // The chunk lands before the shell that loads it, so an opened shell always
    // finds chunk 0, and chunks appear in order, whole (write + rename).
    if (auto err = util::atomic_write(dir + name, chunk); !err.empty()) return fail(err);
    written_ += chunk.size();
    // Written: the final page reads these payloads back from the spill file.
    if (!spill_failed_) {
      if (auto err = data_.spill(pending_fresh_, dir + "/" + kSpillFile); !err.empty()) {
        spill_failed_ = true;  // kept in memory from here on
        util::warn("html report: " + err);
      }
    }
    pending_fresh_.clear();
    ++seq_;
    if (seq_ == 1) {
      std::function<void()> tick;
      if (chunk_ms_ > 0)
        tick = [this, run] {
          // Never waits for the sink: on_finish stops the heartbeat holding mu_.
          std::unique_lock<std::mutex> lock(mu_, std::try_to_lock);
          if (lock.owns_lock() && !finished_ && !broken_) flush_chunk(run);
        };
      beat_ = std::make_unique<Heartbeat>(dir + "/beat.js", beat_ms_, std::move(tick));
      std::string rel = fs::relative(run.run_dir, run.script_dir).generic_string();
      std::string shell = page::live_shell(run, {"report_data/", rel + "/report_data/"}, beat_ms_);
      if (auto err = util::atomic_write(run.run_dir + "/report.html", shell); !err.empty())
        return fail(err);
      written_ += shell.size();
      point_latest(run, &shell, &written_);
    }
  }

  void on_finish(const RunInfo &run, const RecordList &all, const std::string &error) override {
    if (!drain()) return;
    std::unique_lock<std::mutex> lock(mu_, std::defer_lock);
    if (!util::in_fatal_signal()) {
      lock.lock();
    } else {
      // The sink's thread may be stuck where the crash left a lock (inside
      // malloc, say): never wait for ever in a crash handler.
      auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
      while (!lock.try_lock()) {
        if (std::chrono::steady_clock::now() >= until) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    if (!wants_html(run.mode) || finished_) return;
    finished_ = true;
    if (beat_) beat_->stop(!util::in_fatal_signal());  // before report_data goes
    if (auto err = util::make_dirs_below(trace_root(run), run.run_dir);
        !err.empty())
      return fail(err);
    // Streamed to the file: the page (35 MB for clang -O2 on one C++ file)
    // is never held whole, at the exit where the compiler's memory peaks.
    std::uint64_t size = 0;
    if (auto err = util::atomic_write_stream(run.run_dir + "/report.html",
                                             [&](const util::PieceWriter &w) {
                                               page::final_page_to(run, all, data_, error, nlohmann::json::object(),
                                                                   [&](std::string_view piece) {
                                                                     size += piece.size();
                                                                     w(piece);
                                                                   });
                                             });
        !err.empty())
      return fail(err);
    written_ += size;
    point_latest(run, nullptr, &written_);
    std::error_code ec;
    fs::remove_all(run.run_dir + "/report_data", ec);
    release_lock();
    if (const char *s = std::getenv("LT_REPORT_STATS"); s && *s && std::string(s) != "0")
      util::info("html report: " + std::to_string(size) + " bytes, " +
                 std::to_string(written_) + " bytes written in total, " +
                 std::to_string(data_.size()) + " snapshots; the compiler waited for a full queue " +
                 std::to_string(waits_) + " times, " +
                 std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(waited_).count()) + " ms");
  }

  ~HtmlSink() override {
    {
      std::unique_lock<std::mutex> q(qmu_);
      stop_ = stopped_ = true;
      q_cv_.notify_all();
    }
    // As the raw-file writer: joined, even after a crash the host recovered
    // from (clang's CrashRecoveryContext), unless this is that thread.
    if (worker_.joinable()) {
      if (std::this_thread::get_id() == worker_.get_id()) worker_.detach();
      else worker_.join();
    }
    release_lock();
  }

private:
  // Batched chunks (the LLVM plugin): records are stored on a thread of the
  // sink's own, so compressing snapshots, their deltas and the noise
  // classification overlap with the compiler instead of running between its
  // passes. The record is copied, so its texts stay alive until stored.
  void queue(const RunInfo &run, const LowerRecord &rec) {
    std::unique_lock<std::mutex> q(qmu_);
    if (stopped_) return;
    // Bounded: a compiler faster than the sink waits here instead of holding
    // every text still to be stored.
    if (queued_bytes_ >= kMaxQueuedBytes) {
      auto t0 = std::chrono::steady_clock::now();
      space_cv_.wait(q, [this] { return queued_bytes_ < kMaxQueuedBytes; });
      waited_ += std::chrono::steady_clock::now() - t0;
      ++waits_;
    }
    std::uint64_t bytes = rec.before_text().size() + rec.after_text().size();
    queued_bytes_ += bytes;
    std::size_t queued = queue_.size();
    queue_.push_back({rec, bytes});
    if (!worker_.joinable()) {
      run_ = run;
      worker_ = std::thread([this] { work(); });
    }
    // Once per batch (util/batch_wait.h), not a futex call per record.
    if (waiting_ && util::BatchWait::wake(queued, queue_.size(), queued_bytes_ >= kMaxQueuedBytes))
      q_cv_.notify_one();
  }

  void work() {
    std::unique_lock<std::mutex> q(qmu_);
    std::deque<Queued> batch;
    for (;;) {
      waiting_ = true;
      util::BatchWait::wait(
          q_cv_, q, [this] { return stop_; }, [this] { return queue_.size(); },
          [this] { return finishing_ || queued_bytes_ >= kMaxQueuedBytes; });
      waiting_ = false;
      if (queue_.empty()) return;  // stop_ and nothing left
      batch.swap(queue_);
      busy_ = true;
      q.unlock();
      std::uint64_t done = 0;
      {
        std::lock_guard<std::mutex> lock(mu_);
        for (const Queued &r : batch) {
          done += r.bytes;
          // Nothing may escape the thread (std::terminate): as a sink's
          // failure on the compiler's thread, a warning.
          try {
            take(run_, r.rec);
          } catch (const std::exception &e) {
            fail(e.what());
          } catch (...) {
            fail("storing a record failed");
          }
        }
      }
      batch.clear();
      q.lock();
      busy_ = false;
      queued_bytes_ -= done;
      space_cv_.notify_all();
      if (queue_.empty()) idle_cv_.notify_all();
    }
  }

  // Every queued record stored; false when that cannot be waited for (a
  // crash on the sink's own thread: the live report stays as it is, and the
  // next run in the folder finishes it, engine/stale_runs.h).
  bool drain() {
    std::unique_lock<std::mutex> q(qmu_);
    if (!worker_.joinable()) return true;
    if (util::in_fatal_signal()) {
      if (std::this_thread::get_id() == worker_.get_id()) return false;
      finishing_ = true;  // no gathering wait
      q_cv_.notify_all();
      return idle_cv_.wait_for(q, std::chrono::seconds(10), [this] { return queue_.empty() && !busy_; });
    }
    stop_ = stopped_ = true;
    q_cv_.notify_all();
    q.unlock();
    worker_.join();
    return true;
  }

  void release_lock() {
    if (lock_fd_ >= 0) ::close(lock_fd_);
    lock_fd_ = -1;
  }
  void fail(const std::string &err) {
    // Warn once: a full disk should not print a line per pass.
    if (!broken_) util::warn("html report: " + err);
    broken_ = true;
  }

  struct Queued {
    LowerRecord rec;
    std::uint64_t bytes;
  };
  static constexpr std::uint64_t kMaxQueuedBytes = 32u << 20;
  std::chrono::steady_clock::duration waited_{};  // the compiler's, in queue() (LT_REPORT_STATS)
  std::uint64_t waits_ = 0;
  std::mutex qmu_;  // the queue; never held while waiting for mu_
  std::condition_variable q_cv_, space_cv_, idle_cv_;
  std::deque<Queued> queue_;
  std::uint64_t queued_bytes_ = 0;
  bool stop_ = false, stopped_ = false, busy_ = false, waiting_ = false, finishing_ = false;
  std::thread worker_;
  RunInfo run_;  // as the first queued record saw it

  std::mutex mu_;
  ReportData data_;
  std::vector<std::string> pending_;     // records not yet in a chunk (record_text)
  std::vector<int> pending_fresh_;       // snapshots they introduced
  std::chrono::steady_clock::time_point last_chunk_;
  int seq_ = 0;
  bool live_;
  int chunk_ms_;
  int beat_ms_ = Heartbeat::interval_from_env();
  std::unique_ptr<Heartbeat> beat_;  // while live
  int lock_fd_ = -1;                 // report_data/writer.lock, while live
  bool broken_ = false, finished_ = false, spill_failed_ = false;
  std::uint64_t written_ = 0;
};

}  // namespace

std::shared_ptr<Sink> make_html_sink(bool live, int chunk_ms) {
  return std::make_shared<HtmlSink>(live, chunk_ms);
}

std::string write_html_report(const RunInfo &run, const RecordList &recs,
                              const std::string &path) {
  ReportData data;
  std::string html = page::final_page(run, recs, data, "");
  return util::atomic_write(path, html);
}

}  // namespace lowertrace::report
