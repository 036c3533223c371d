// SPDX-License-Identifier: Apache-2.0
#include "engine/core/parallel.h"

#include <algorithm>
#include <chrono>
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
