// SPDX-License-Identifier: Apache-2.0
// The one way the UI starts engine work: QtConcurrent::run with a QPromise, the engine's
// Progress adapted by PromiseProgress, and the exception boundary (STYLE.md §3: exceptions that
// still occur — bad_alloc, third-party — become Error{kInternal}). The lambda owns only values;
// it never touches a QObject of the UI thread.
//
// Example:
//   auto trace = std::make_shared<JobTrace>();
//   watcher_.setFuture(runInBackground<LoadOutcome>(trace, [request](Progress& progress) {
//     return LoadData(request, progress);
//   }));
#pragma once

#include <exception>
#include <memory>
#include <new>
#include <utility>

#include <QFuture>
#include <QPromise>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include "engine/core/result.h"
#include "ui/tasks/job_trace.h"
#include "ui/tasks/promise_progress.h"

namespace deniable::ui {

// Clears the upper halves of the AVX registers (vzeroupper) when the CPU has AVX. A thread
// whose upper state is dirty (library code that used 256-bit AVX without vzeroupper; a thread
// created from such a thread inherits the state) runs the engine's SSE code and glibc's exp/log
// many times slower: measured on this project's Xeon, AnalyseTableRisk on the 10,000-row demo
// took 3.2 s of CPU in a worker and 0.15 s after a vzeroupper (the same call on a clean main
// thread: 0.15 s). Harmless when the state is clean; a no-op elsewhere than x86 with GCC/Clang.
inline void clearUpperVectorState() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  if (__builtin_cpu_supports("avx")) __asm__ volatile("vzeroupper");
#endif
}

// R must be constructible from an Error (a Result<...>). `work(Progress&)` returns R. Runs on
// `pool`, or on Qt's global pool when it is null.
template <typename R, typename Work>
QFuture<R> runInBackground(QThreadPool* pool, std::shared_ptr<JobTrace> trace, Work work) {
  auto task = [trace = std::move(trace), work = std::move(work)](QPromise<R>& promise) {
    PromiseProgress<R> progress(promise, trace.get());
    clearUpperVectorState();
    try {
      promise.addResult(work(progress));
    } catch (const std::bad_alloc&) {
      promise.addResult(R(InternalError("out of memory")));
    } catch (const std::exception& e) {  // boundary: exceptions become errors
      promise.addResult(R(InternalError(e.what())));
    } catch (...) {
      promise.addResult(R(InternalError("unknown exception in a background job")));
    }
    if (trace) trace->finish();
  };
  return pool != nullptr ? QtConcurrent::run(pool, std::move(task))
                         : QtConcurrent::run(std::move(task));
}

template <typename R, typename Work>
QFuture<R> runInBackground(std::shared_ptr<JobTrace> trace, Work work) {
  return runInBackground<R>(nullptr, std::move(trace), std::move(work));
}

}  // namespace deniable::ui
