// util/batch_wait.h: when the sinks' writer threads are woken.
#include "util/batch_wait.h"

#include <gtest/gtest.h>

#include <deque>
#include <thread>
#include <vector>

namespace {

using lowertrace::util::BatchWait;

TEST(BatchWait, ProducerWakesOnFirstItemsFullBatchOrFullQueueOnly) {
  EXPECT_TRUE(BatchWait::wake(0, 1, false));
  // A record can queue two items at once (the raw-file writer: before and
  // after text): the first call must wake the writer all the same.
  EXPECT_TRUE(BatchWait::wake(0, 2, false));
  EXPECT_FALSE(BatchWait::wake(1, 3, false));
  EXPECT_TRUE(BatchWait::wake(BatchWait::kBatch - 1, BatchWait::kBatch + 1, false));
  EXPECT_FALSE(BatchWait::wake(BatchWait::kBatch, BatchWait::kBatch + 2, false));
  EXPECT_TRUE(BatchWait::wake(3, 5, true));  // the producer is about to wait for room
  int wakes = 0;
  for (std::size_t n = 1; n <= 4 * BatchWait::kBatch; ++n) wakes += BatchWait::wake(n - 1, n, false);
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
    if (waiting && BatchWait::wake(q.size() - 1, q.size(), false)) cv.notify_one();
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

// The raw-file writer's shape: two items per record and a byte limit the
// producer waits on. A policy that looked only at the queue's new size never
// woke a writer that found the queue empty when a record added two items,
// and the producer then waited for room forever (a hang, found with a 16 MB
// limit on a clang trace).
TEST(BatchWait, TwoItemsPerRecordAndAFullQueueNeverStall) {
  std::mutex mu;
  std::condition_variable cv, space;
  std::deque<int> q;
  constexpr std::size_t kLimit = 6;  // items stand for bytes here
  bool stop = false, waiting = false;
  std::size_t taken = 0;
  std::thread writer([&] {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      waiting = true;
      BatchWait::wait(cv, lock, [&] { return stop; }, [&] { return q.size(); },
                      [&] { return q.size() >= kLimit; });
      waiting = false;
      if (q.empty()) return;
      taken += q.size();
      q.clear();
      space.notify_all();
    }
  });
  constexpr int kRecords = 2000;
  for (int i = 0; i < kRecords; ++i) {
    std::unique_lock<std::mutex> lock(mu);
    space.wait(lock, [&] { return q.size() < kLimit; });
    std::size_t before = q.size();
    q.push_back(2 * i);
    q.push_back(2 * i + 1);
    if (waiting && BatchWait::wake(before, q.size(), q.size() >= kLimit)) cv.notify_one();
  }
  {
    std::lock_guard<std::mutex> g(mu);
    stop = true;
  }
  cv.notify_one();
  writer.join();
  EXPECT_EQ(taken, 2u * kRecords);
}

}  // namespace
