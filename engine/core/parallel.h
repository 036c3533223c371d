// SPDX-License-Identifier: Apache-2.0
// The engine's one fork-join primitive (issue 12, item 4). Every thread the engine starts is
// started here, so that a worker's exception never reaches std::terminate: it is caught in the
// worker, the other workers are asked to stop (StopFlag), ALL threads are joined, and the
// caller gets a Status. An allocation failure (std::bad_alloc) becomes
// "out of memory while <what>".
//
// Contract (ForkJoin and ParallelFor):
//   - Returns only after every thread it started has been joined: nothing outlives the call,
//     so workers may capture the caller's locals by reference.
//   - Worker 0 is the calling thread (so thread-affine objects such as a Progress are touched
//     from the caller's thread only when worker 0 alone touches them).
//   - The first exception wins; later ones are dropped. The error names `what`.
//   - Results must not depend on scheduling: derive per-task random streams before forking
//     (STYLE.md §5) and write each task's result to its own slot.
// ParallelFor's helpers run on threads kept for it (one pool, hardware concurrency − 1 threads,
// one fork at a time; a nested or concurrent fork, or one that wants more helpers, starts
// threads of its own), so a fork costs a wake-up, not a thread start. ForkJoin always starts
// its own threads (its workers may run for the whole call, in roles of their own).
// When NOT to use: for work of a few microseconds, or for work that must run while the caller
// returns (nothing a caller gives here outlives the call).
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "engine/core/progress.h"
#include "engine/core/result.h"

namespace deniable {

// Shared by the workers of one ForkJoin. Set by the helper when a worker throws; any worker
// may set it to ask the others to stop early (a consumer that has enough, a cancelled run).
class StopFlag {
 public:
  bool stopped() const { return flag_.load(std::memory_order_relaxed); }
  void Stop() { flag_.store(true); }

 private:
  std::atomic<bool> flag_{false};
};

// `requested` threads (0 = the hardware concurrency), at most `tasks`, at least 1.
std::size_t ThreadCount(std::size_t requested, std::size_t tasks);

// Runs body(worker, stop) for worker = 0 .. workers - 1 at once: worker 0 on the calling thread,
// the others on new threads. Every worker must run (roles may differ), so failing to start a
// thread is an error (kInternal, nothing left running).
// Errors: kFailedPrecondition "out of memory while <what>" for std::bad_alloc; kInternal
// "<what> failed: <e.what()>" for any other exception.
// Example (a consumer on the calling thread, producers elsewhere):
//   Status s = ForkJoin(1 + producers, "synthesis", [&](std::size_t w, StopFlag& stop) {
//     if (w == 0) { Consume(stop); stop.Stop(); } else { while (!stop.stopped()) Produce(); }
//   });
//   if (!s) return s.error();
Status ForkJoin(std::size_t workers, std::string_view what,
                const std::function<void(std::size_t worker, StopFlag& stop)>& body);

// Runs task(index, worker) exactly once for every index in [0, count), handing indices out
// dynamically, on ThreadCount(threads, count) threads (0 = hardware concurrency; the calling
// thread and pool threads or, when the pool is taken, new ones); `what` names
// the work in errors ("sampling rows"); `worker` (< that count) names
// the thread, for per-thread scratch. If fewer threads can be started, the started ones do all
// the work. With a `progress` (only the calling thread touches it), the calling thread polls
// IsCancelled() before each of its tasks (and while waiting for the others) and, when `stage`
// is not empty, reports done/count with it after each: a cancel leaves the remaining tasks unrun
// and returns kCancelled "<what> cancelled". Errors as ForkJoin.
// Example:
//   std::vector<double> out(n);
//   Status s = ParallelFor(n, /*threads=*/4, "scoring",
//                          [&](std::size_t i, std::size_t) { out[i] = Score(i); });
Status ParallelFor(std::size_t count, std::size_t threads, std::string_view what,
                   const std::function<void(std::size_t index, std::size_t worker)>& task,
                   Progress* progress = nullptr, std::string_view stage = {});

}  // namespace deniable
