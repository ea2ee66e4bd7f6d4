// util/batch_wait.h: when the sinks' writer threads are woken.
#include "util/batch_wait.h"

#include <gtest/gtest.h>

#include <deque>
#include <thread>
#include <vector>

namespace {

using lowertrace::util::BatchWait;

TEST(BatchWait, ProducerWakesOnFirstItemAndFullBatchOnly) {
  EXPECT_TRUE(BatchWait::wake(1));
  EXPECT_TRUE(BatchWait::wake(BatchWait::kBatch));
  int wakes = 0;
  for (std::size_t n = 1; n <= 4 * BatchWait::kBatch; ++n) wakes += BatchWait::wake(n);
  EXPECT_EQ(wakes, 2);  // not one per item
}

TEST(BatchWait, ReturnsAtOnceWhenStoppedOrReady) {
  std::mutex mu;
  std::condition_variable cv;
  std::unique_lock<std::mutex> lock(mu);
  std::size_t queued = 0;
  bool stop = true;
  // Stopped with nothing queued: no wait for items that never come.
  BatchWait::wait(cv, lock, [&] { return stop; }, [&] { return queued; }, [] { return false; });
  stop = false;
  queued = 1;
  // One item and a finish waiting for it: no gathering wait either (a
  // condition variable nobody notifies would hold it for kGather).
  BatchWait::wait(cv, lock, [&] { return stop; }, [&] { return queued; }, [] { return true; });
  SUCCEED();
}

// A writer thread on the policy gets every item, in order, whatever the
// interleaving: items left below a batch are taken after the gathering wait.
TEST(BatchWait, WriterGetsEveryItemInOrder) {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<int> q;
  bool stop = false, waiting = false;
  std::vector<int> got;
  std::thread writer([&] {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      waiting = true;
      BatchWait::wait(cv, lock, [&] { return stop; }, [&] { return q.size(); }, [] { return false; });
      waiting = false;
      if (q.empty()) return;
      while (!q.empty()) {
        got.push_back(q.front());
        q.pop_front();
      }
    }
  });
  constexpr int kItems = 10000;
  for (int i = 0; i < kItems; ++i) {
    std::lock_guard<std::mutex> g(mu);
    q.push_back(i);
    if (waiting && BatchWait::wake(q.size())) cv.notify_one();
    if (i % 997 == 0) std::this_thread::yield();
  }
  {
    std::lock_guard<std::mutex> g(mu);
    stop = true;
  }
  cv.notify_one();
  writer.join();
  ASSERT_EQ(got.size(), static_cast<std::size_t>(kItems));
  for (int i = 0; i < kItems; ++i) ASSERT_EQ(got[static_cast<std::size_t>(i)], i);
}

}  // namespace
