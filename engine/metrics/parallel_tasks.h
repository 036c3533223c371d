// SPDX-License-Identifier: Apache-2.0
// Internal to engine/metrics and engine/marginals: ParallelFor (engine/core/parallel.h) with
// the progress mapped onto [begin, end], for encoding columns and counting column pairs. Not API.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "engine/core/progress.h"
#include "engine/core/result.h"

namespace deniable::internal {

// How many threads RunParallel uses: `threads` (0 = hardware concurrency), at most `count`,
// at least 1.
std::size_t WorkerCount(int threads, std::size_t count);

// Runs task(index, worker) for every index in [0, count), each exactly once, on
// WorkerCount(threads, count) threads; `worker` (in [0, WorkerCount)) names the thread, for
// per-thread scratch. Tasks must be independent, so results do not depend on scheduling.
// The calling thread works too and is the only one that touches `progress`: it polls
// IsCancelled() and reports begin + (end - begin) * done / count with `stage` after each of its
// tasks, and keeps polling while the other threads finish.
// Returns kCancelled when cancelled before every task ran; a task's exception becomes an error
// as in ParallelFor ("out of memory while <stage>" for std::bad_alloc).
Status RunParallel(std::size_t count, int threads, Progress& progress, double begin, double end,
                   const std::string& stage,
                   const std::function<void(std::size_t index, std::size_t worker)>& task);

}  // namespace deniable::internal
