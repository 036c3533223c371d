// SPDX-License-Identifier: Apache-2.0
#include "engine/core/parallel.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace deniable {
namespace {

Error ErrorFrom(const std::exception_ptr& failure, std::string_view what) {
  const std::string name(what);
  try {
    std::rethrow_exception(failure);
  } catch (const std::bad_alloc&) {
    return FailedPrecondition("out of memory while " + name +
                              "; free some memory or work on less data");
  } catch (const std::exception& e) {
    return InternalError(name + " failed: " + e.what());
  } catch (...) {
    return InternalError(name + " failed: unknown exception");
  }
}

// Threads kept for ParallelFor (which may run on fewer threads than it asks for): one fork
// used to start and join a thread per worker, and a fitted marginals model makes ~10,000 short
// forks (belief propagation, the loss), 0.5 s of a 6 s Adult run in thread starts. The pool's
// threads (hardware concurrency − 1, started on first use, never stopped: they sleep between
// jobs and end with the process) take one job at a time; a fork that finds the pool busy (a
// nested ParallelFor, two jobs at once) or wants more helpers than it has starts its own
// threads as before. Either way the contract of parallel.h holds: the call returns after every
// helper has finished its part, so helpers may use the caller's locals.
class WorkerPool {
 public:
  static WorkerPool& Instance() {
    // Leaked on purpose: no destructor may join sleeping threads at exit.
    static WorkerPool* pool = new WorkerPool(
        std::max<std::size_t>(1, std::thread::hardware_concurrency()) - 1);
    return *pool;
  }

  // Runs job(1) .. job(helpers) on pool threads while the caller runs its own part; false
  // (nothing run) when the pool is busy or too small.
  bool TryRun(std::size_t helpers, const std::function<void(std::size_t)>& job,
              const std::function<void()>& caller_part) {
    if (helpers == 0 || helpers > threads_.size()) return false;
    // One job at a time; a nested fork (its caller may be this very thread) finds it taken.
    bool expected = false;
    if (!busy_.compare_exchange_strong(expected, true)) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      wanted_ = helpers;
      taken_ = 0;
      finished_ = 0;
      ++generation_;
    }
    work_.notify_all();
    caller_part();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return finished_ == wanted_; });
    job_ = nullptr;
    busy_.store(false);
    return true;
  }

 private:
  explicit WorkerPool(std::size_t threads) {
    for (std::size_t i = 0; i < threads; ++i) {
      try {
        threads_.emplace_back([this] { Loop(); });
      } catch (const std::exception&) {
        break;  // fewer pool threads; forks fall back to their own
      }
    }
    for (std::thread& t : threads_) t.detach();
  }

  void Loop() {
    std::uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (job_ == nullptr || taken_ == wanted_) continue;
      const std::size_t worker = ++taken_;
      const std::function<void(std::size_t)>* job = job_;
      lock.unlock();
      (*job)(worker);  // noexcept: Run's worker catches everything
      lock.lock();
      if (++finished_ == wanted_) done_.notify_all();
    }
  }

  std::vector<std::thread> threads_;
  std::atomic<bool> busy_{false};  // a fork is using the pool
  std::mutex mutex_;   // guards everything below
  std::condition_variable work_;
  std::condition_variable done_;
  const std::function<void(std::size_t)>* job_ = nullptr;
  std::uint64_t generation_ = 0;
  std::size_t wanted_ = 0;
  std::size_t taken_ = 0;
  std::size_t finished_ = 0;
};

// ForkJoin; with `fewer_ok`, threads that cannot be started are simply not used.
Status Run(std::size_t workers, std::string_view what, bool fewer_ok,
           const std::function<void(std::size_t, StopFlag&)>& body) {
  workers = std::max<std::size_t>(1, workers);
  StopFlag stop;
  std::mutex mutex;
  std::exception_ptr first_failure;
  auto run = [&](std::size_t worker) noexcept {
    try {
      body(worker, stop);
    } catch (...) {
      {
        std::lock_guard<std::mutex> lock(mutex);
        if (!first_failure) first_failure = std::current_exception();
      }
      stop.Stop();
    }
  };
  if (fewer_ok && workers > 1) {
    const std::function<void(std::size_t)> helper = [&](std::size_t worker) { run(worker); };
    if (WorkerPool::Instance().TryRun(workers - 1, helper, [&] { run(0); })) {
      if (first_failure) return ErrorFrom(first_failure, what);
      return OkStatus();
    }
  }
  std::vector<std::thread> threads;
  std::string start_failure;
  try {
    threads.reserve(workers - 1);
    for (std::size_t w = 1; w < workers; ++w) threads.emplace_back(run, w);
  } catch (const std::exception& e) {  // std::system_error (no thread) or std::bad_alloc
    if (!fewer_ok) {
      start_failure = e.what();
      stop.Stop();
    }
  }
  if (start_failure.empty()) run(0);
  for (std::thread& thread : threads) thread.join();
  if (!start_failure.empty()) {
    return InternalError("cannot start " + std::to_string(workers) + " threads for " +
                         std::string(what) + ": " + start_failure);
  }
  if (first_failure) return ErrorFrom(first_failure, what);
  return OkStatus();
}

}  // namespace

std::size_t ThreadCount(std::size_t requested, std::size_t tasks) {
  const std::size_t wanted =
      requested > 0 ? requested : std::max<std::size_t>(1, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min(wanted, tasks));
}

Status ForkJoin(std::size_t workers, std::string_view what,
                const std::function<void(std::size_t worker, StopFlag& stop)>& body) {
  return Run(workers, what, /*fewer_ok=*/false, body);
}

Status ParallelFor(std::size_t count, std::size_t threads, std::string_view what,
                   const std::function<void(std::size_t index, std::size_t worker)>& task,
                   Progress* progress, std::string_view stage) {
  if (count == 0) return OkStatus();
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::atomic<bool> cancelled{false};
  Status status = Run(
      ThreadCount(threads, count), what, /*fewer_ok=*/true,
      [&](std::size_t worker, StopFlag& stop) {
        const bool caller = worker == 0;
        while (!stop.stopped()) {
          if (caller && progress != nullptr && progress->IsCancelled()) {
            cancelled = true;
            stop.Stop();
            return;
          }
          const std::size_t index = next.fetch_add(1);
          if (index >= count) break;
          task(index, worker);
          const std::size_t finished = done.fetch_add(1) + 1;
          if (caller && progress != nullptr && !stage.empty()) {
            progress->Report(static_cast<double>(finished) / static_cast<double>(count), stage);
          }
        }
        // The caller keeps watching for a cancel while the other threads finish.
        while (caller && progress != nullptr && !stop.stopped() && done.load() < count) {
          if (progress->IsCancelled()) {
            cancelled = true;
            stop.Stop();
            return;
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
      });
  if (!status) return status;
  if (cancelled && done.load() < count) return Cancelled(std::string(what) + " cancelled");
  return OkStatus();
}

}  // namespace deniable
