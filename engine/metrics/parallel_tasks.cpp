// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/parallel_tasks.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace deniable::internal {

std::size_t WorkerCount(int threads, std::size_t count) {
  const std::size_t wanted = threads > 0
                                 ? static_cast<std::size_t>(threads)
                                 : std::max<std::size_t>(1, std::thread::hardware_concurrency());
  return std::max<std::size_t>(1, std::min(wanted, count));
}

Status RunParallel(std::size_t count, int threads, Progress& progress, double begin, double end,
                   const std::string& stage,
                   const std::function<void(std::size_t index, std::size_t worker)>& task) {
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> failed{false};
  std::string failure;  // written only by the thread that sets `failed` first

  auto work = [&](std::size_t worker) {
    try {
      while (!stop.load(std::memory_order_relaxed)) {
        if (worker == 0 && progress.IsCancelled()) {
          stop = true;
          break;
        }
        const std::size_t index = next.fetch_add(1);
        if (index >= count) break;
        task(index, worker);
        const std::size_t finished = done.fetch_add(1) + 1;
        if (worker == 0) {
          progress.Report(
              begin + (end - begin) * static_cast<double>(finished) / static_cast<double>(count),
              stage);
        }
      }
    } catch (const std::exception& e) {
      if (!failed.exchange(true)) failure = e.what();
      stop = true;
    } catch (...) {
      if (!failed.exchange(true)) failure = "unknown exception";
      stop = true;
    }
  };

  std::vector<std::thread> others;
  for (std::size_t worker = 1; worker < WorkerCount(threads, count); ++worker) {
    try {
      others.emplace_back(work, worker);
    } catch (const std::system_error&) {
      break;  // fewer threads: the calling thread takes the rest
    }
  }
  work(0);
  while (!stop && done.load() < count && !others.empty()) {
    if (progress.IsCancelled()) stop = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  for (std::thread& thread : others) thread.join();
  if (failed) return InternalError(stage + " failed: " + failure);
  if (done.load() < count) return Cancelled("comparison cancelled");
  return OkStatus();
}

}  // namespace deniable::internal
