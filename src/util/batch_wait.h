// util/batch_wait.h - when a sink's writer thread wakes up.
//
// The raw-file writer and the HTML report's store each drain a queue that the
// compiler's thread fills, one record per pass. A writer that woke for every
// record went back to sleep after each one, so every record cost the
// compiler a futex wake-up (about 0.4 s of a 10 s traced clang compile of
// 92,000 records). A writer instead waits for a batch: woken by the first
// record, it gives the compiler up to kGather to queue kBatch of them, or to
// fill the queue, and the compiler signals only at those points.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>

namespace lowertrace::util {

struct BatchWait {
  static constexpr std::size_t kBatch = 256;
  static constexpr std::chrono::milliseconds kGather{5};
  static constexpr std::chrono::milliseconds kIdlePoll{250};

  // Producer, holding the queue's lock, after queueing: whether to notify a
  // waiting writer. The queue held `before` items and holds `after` now (a
  // record can add two), `full`: it reached its byte limit, so the producer
  // will wait for the writer.
  static bool wake(std::size_t before, std::size_t after, bool full) {
    return (before == 0 && after > 0) || (before < kBatch && after >= kBatch) || full;
  }

  // Writer, holding `lock`: returns when `stop()` or when the queue holds
  // items, after a gathering wait of at most kGather unless a batch is ready
  // (`ready()`: kBatch items, a full queue, a finish waiting for it). Waits
  // are timed, so that a wake-up the producer missed costs time, not a hang.
  template <class Stop, class Size, class Ready>
  static void wait(std::condition_variable &cv, std::unique_lock<std::mutex> &lock, Stop stop,
                   Size size, Ready ready) {
    while (!cv.wait_for(lock, kIdlePoll, [&] { return stop() || size() > 0; })) {
    }
    if (stop() || size() >= kBatch || ready()) return;
    cv.wait_for(lock, kGather, [&] { return stop() || size() >= kBatch || ready(); });
  }
};

}  // namespace lowertrace::util
