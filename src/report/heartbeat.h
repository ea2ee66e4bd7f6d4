// report/heartbeat.h - lets a live report tell a slow run from a dead one.
//
// While a run is live its report polls for new chunk files. A run that was
// SIGKILLed (or died where no handler could finish it) writes nothing more,
// and without a sign of life the page would say "run in progress" for ever.
// So a thread rewrites report_data/beat.js ("__ltBeat(<n>);") every
// `interval_ms` with a growing counter, however long a pass runs; the page
// declares the writer gone when the counter stops moving. A counter, not a
// time stamp: the page then needs no clock agreement with the writer.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace lowertrace::report {

class Heartbeat {
public:
  // Writes beat 0 now (so it exists before the page does), then beats.
  // `on_beat`, if set, runs on the heartbeat thread before each later beat.
  Heartbeat(std::string path, int interval_ms, std::function<void()> on_beat = {});
  ~Heartbeat();  // stop()
  // Stops beating. `wait`: join the thread (false inside a crash handler).
  void stop(bool wait = true);

  // LT_LIVE_BEAT_MS, else 1000.
  static int interval_from_env();

private:
  bool beat();  // false once a write failed: stop quietly, the page will tell
  std::string path_;
  int interval_ms_;
  std::function<void()> on_beat_;
  unsigned long n_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace lowertrace::report
