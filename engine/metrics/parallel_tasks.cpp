// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/parallel_tasks.h"

#include "engine/core/parallel.h"

namespace deniable::internal {

std::size_t WorkerCount(int threads, std::size_t count) {
  return ThreadCount(threads > 0 ? static_cast<std::size_t>(threads) : 0, count);
}

Status RunParallel(std::size_t count, int threads, Progress& progress, double begin, double end,
                   const std::string& stage,
                   const std::function<void(std::size_t index, std::size_t worker)>& task) {
  SubProgress part(progress, begin, end);
  Status s = ParallelFor(count, WorkerCount(threads, count), stage, task, &part, stage);
  if (!s && s.error().code == ErrorCode::kCancelled) return Cancelled("comparison cancelled");
  return s;
}

}  // namespace deniable::internal
