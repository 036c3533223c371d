// SPDX-License-Identifier: Apache-2.0
// #12 item 4: the engine's fork-join helper turns worker exceptions into errors, joins every
// thread, and gives the serial path's results.
#include "engine/core/parallel.h"

#include <gtest/gtest.h>

#include <dirent.h>

#include <atomic>
#include <new>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <vector>

#include "tests/support/fake_progress.h"

namespace deniable {
namespace {

// Threads of this process (entries of /proc/self/task).
std::size_t ThreadsOfThisProcess() {
  std::size_t count = 0;
  DIR* dir = ::opendir("/proc/self/task");
  if (dir == nullptr) return 0;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_name[0] != '.') ++count;
  }
  ::closedir(dir);
  return count;
}

TEST(ParallelTest, WorkerExceptionReachesTheCallerAsAnError) {
  for (std::size_t threads : {1u, 4u}) {
    Status s = ParallelFor(100, threads, "scoring",
                           [](std::size_t i, std::size_t) {
                             if (i == 37) throw std::runtime_error("boom at 37");
                           });
    ASSERT_FALSE(s.has_value()) << threads;
    EXPECT_EQ(s.error().code, ErrorCode::kInternal);
    EXPECT_EQ(s.error().message, "scoring failed: boom at 37");
  }
}

TEST(ParallelTest, BadAllocBecomesAClearOutOfMemoryError) {
  Status s = ParallelFor(64, 3, "sampling rows",
                         [](std::size_t i, std::size_t) {
                           if (i % 5 == 4) throw std::bad_alloc();
                         });
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::kFailedPrecondition);
  EXPECT_EQ(s.error().message,
            "out of memory while sampling rows; free some memory or work on less data");
  Status fork = ForkJoin(2, "parsing the CSV file", [](std::size_t worker, StopFlag&) {
    if (worker == 1) throw std::bad_alloc();
  });
  ASSERT_FALSE(fork.has_value());
  EXPECT_EQ(fork.error().message,
            "out of memory while parsing the CSV file; free some memory or work on less data");
}

TEST(ParallelTest, NonStandardExceptionIsReportedToo) {
  Status s = ForkJoin(3, "counting", [](std::size_t worker, StopFlag&) {
    if (worker == 2) throw 42;
  });
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message, "counting failed: unknown exception");
}

TEST(ParallelTest, EveryThreadIsJoinedWhenOneFails) {
  const std::size_t before = ThreadsOfThisProcess();
  ASSERT_GT(before, 0u);
  std::atomic<int> finished{0};
  Status s = ForkJoin(4, "the work", [&](std::size_t worker, StopFlag& stop) {
    if (worker == 2) throw std::runtime_error("worker 2 failed");
    // The others would run forever: only the helper's stop flag ends them.
    while (!stop.stopped()) std::this_thread::yield();
    ++finished;
  });
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().message, "the work failed: worker 2 failed");
  EXPECT_EQ(finished.load(), 3);  // all three others returned before ForkJoin did
  EXPECT_EQ(ThreadsOfThisProcess(), before);  // nothing left running
}

TEST(ParallelTest, WorkerZeroIsTheCallingThread) {
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<std::thread::id> ids(3);
  ASSERT_TRUE(ForkJoin(3, "ids", [&](std::size_t worker, StopFlag&) {
                ids[worker] = std::this_thread::get_id();
              }).has_value());
  EXPECT_EQ(ids[0], caller);
  EXPECT_NE(ids[1], caller);
  EXPECT_NE(ids[2], caller);
  EXPECT_NE(ids[1], ids[2]);
}

TEST(ParallelTest, ResultsEqualTheSerialPathAndEachIndexRunsOnce) {
  const std::size_t n = 10'000;
  auto run = [&](std::size_t threads) {
    std::vector<std::uint64_t> out(n, 0);
    std::vector<std::atomic<int>> runs(n);
    EXPECT_TRUE(ParallelFor(n, threads, "squares",
                            [&](std::size_t i, std::size_t worker) {
                              EXPECT_LT(worker, threads == 0 ? 1024u : threads);
                              out[i] = static_cast<std::uint64_t>(i) * i + 7;
                              ++runs[i];
                            })
                    .has_value());
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(runs[i].load(), 1) << i;
    return out;
  };
  const std::vector<std::uint64_t> serial = run(1);
  EXPECT_EQ(serial[3], 16u);
  EXPECT_EQ(run(4), serial);
  EXPECT_EQ(run(0), serial);
}

TEST(ParallelTest, CancelLeavesTasksUnrunAndSaysCancelled) {
  test_support::FakeProgress progress(/*cancel_after_reports=*/3);
  std::atomic<std::size_t> ran{0};
  Status s = ParallelFor(
      100'000, 2, "sampling",
      [&](std::size_t, std::size_t) {
        ++ran;
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      },
      &progress, "Sampling rows");
  ASSERT_FALSE(s.has_value());
  EXPECT_EQ(s.error().code, ErrorCode::kCancelled);
  EXPECT_EQ(s.error().message, "sampling cancelled");
  EXPECT_LT(ran.load(), 100'000u);
  EXPECT_EQ(progress.last_stage(), "Sampling rows");
}

// ParallelFor with the default thread count runs its helpers on the kept pool threads
// (parallel.cpp, WorkerPool): thousands of forks in a row, forks nested inside a fork's task
// (the pool is taken: the inner one starts its own threads), two callers forking at once, and
// a failing task: every index runs exactly once and every error reaches its caller.
TEST(ParallelTest, PooledForksNestRunConcurrentlyAndReportFailures) {
  std::vector<int> hits(64);
  for (int round = 0; round < 2000; ++round) {
    ASSERT_TRUE(ParallelFor(hits.size(), 0, "round",
                            [&](std::size_t i, std::size_t) { ++hits[i]; })
                    .has_value());
  }
  for (int h : hits) ASSERT_EQ(h, 2000);

  std::vector<std::atomic<int>> inner(16 * 32);
  ASSERT_TRUE(ParallelFor(16, 0, "outer",
                          [&](std::size_t i, std::size_t) {
                            const Status s = ParallelFor(32, 0, "inner", [&](std::size_t j,
                                                                            std::size_t) {
                              ++inner[i * 32 + j];
                            });
                            if (!s) throw std::runtime_error(s.error().message);
                          })
                  .has_value());
  for (const auto& h : inner) ASSERT_EQ(h.load(), 1);

  std::atomic<long> total{0};
  auto caller = [&] {
    for (int round = 0; round < 300; ++round) {
      const Status s = ParallelFor(20, 0, "concurrent", [&](std::size_t i, std::size_t) {
        total += static_cast<long>(i);
      });
      if (!s) total = -1'000'000'000;
    }
  };
  std::thread other(caller);
  caller();
  other.join();
  EXPECT_EQ(total.load(), 2 * 300 * 190);

  for (int round = 0; round < 50; ++round) {
    const Status s = ParallelFor(40, 0, "failing", [&](std::size_t i, std::size_t) {
      if (i == 25) throw std::runtime_error("task 25");
    });
    ASSERT_FALSE(s.has_value());
    EXPECT_EQ(s.error().message, "failing failed: task 25");
  }
}

TEST(ParallelTest, ThreadCountIsBounded) {
  EXPECT_EQ(ThreadCount(8, 3), 3u);
  EXPECT_EQ(ThreadCount(2, 100), 2u);
  EXPECT_EQ(ThreadCount(5, 0), 1u);
  EXPECT_GE(ThreadCount(0, 100), 1u);
  EXPECT_TRUE(ParallelFor(0, 0, "nothing", [](std::size_t, std::size_t) {
                throw std::logic_error("never called");
              }).has_value());
}

}  // namespace
}  // namespace deniable
