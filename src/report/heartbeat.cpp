#include "report/heartbeat.h"

#include "util/fs.h"

#include <chrono>
#include <cstdlib>

namespace lowertrace::report {

Heartbeat::Heartbeat(std::string path, int interval_ms, std::function<void()> on_beat)
    : path_(std::move(path)), interval_ms_(interval_ms < 10 ? 10 : interval_ms), on_beat_(std::move(on_beat)) {
  if (!beat()) return;
  try {
    thread_ = std::thread([this] {
      std::unique_lock<std::mutex> lock(mu_);
      while (!cv_.wait_for(lock, std::chrono::milliseconds(interval_ms_), [this] { return stop_; })) {
        lock.unlock();
        if (on_beat_) on_beat_();
        bool ok = beat();
        lock.lock();
        if (!ok) return;
      }
    });
  } catch (const std::system_error &) {
    // No thread: the page will call the run dead after a while; harmless.
  }
}

Heartbeat::~Heartbeat() { stop(); }

void Heartbeat::stop(bool wait) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (!thread_.joinable()) return;
  if (wait) thread_.join();
  else thread_.detach();  // the process is about to die
}

bool Heartbeat::beat() {
  std::string js = "__ltBeat(" + std::to_string(n_++) + ");\n";
  return util::atomic_write(path_, js).empty();
}

int Heartbeat::interval_from_env() {
  const char *v = std::getenv("LT_LIVE_BEAT_MS");
  int ms = v ? std::atoi(v) : 0;
  return ms > 0 ? ms : 1000;
}

}  // namespace lowertrace::report
