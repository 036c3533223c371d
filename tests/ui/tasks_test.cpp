// SPDX-License-Identifier: Apache-2.0
// The Qt Concurrent glue: PromiseProgress carries the engine's progress and stage to the future
// and the future's Cancel back to the engine; JobTrace keeps every stage in order; exceptions
// thrown in a background job become errors.
#include <stdexcept>

#include <QFuture>
#include <QPromise>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"
#include "ui/tasks/job_trace.h"
#include "ui/tasks/promise_progress.h"
#include "ui/tasks/run_in_background.h"

namespace deniable::ui {
namespace {

TEST(PromiseProgressTest, CarriesFractionAndStageAndSeesCancel) {
  QPromise<int> promise;
  QFuture<int> future = promise.future();
  promise.start();
  JobTrace trace;
  PromiseProgress<int> progress(promise, &trace);
  EXPECT_EQ(future.progressMinimum(), 0);
  EXPECT_EQ(future.progressMaximum(), PromiseProgress<int>::kSteps);
  progress.Report(0.25, "Reading");
  EXPECT_EQ(future.progressValue(), 250);
  EXPECT_EQ(future.progressText(), QStringLiteral("Reading"));
  progress.Report(0.1, "Going back");  // never backwards
  EXPECT_EQ(future.progressValue(), 250);
  EXPECT_FALSE(progress.IsCancelled());
  future.cancel();
  EXPECT_TRUE(progress.IsCancelled());
  promise.finish();
}

TEST(JobTraceTest, KeepsStagesInOrderAndClosesThem) {
  JobTrace trace;
  trace.report(0.1, QStringLiteral("Reading"));
  trace.report(0.2, QStringLiteral("Reading"));  // same stage: no new entry
  trace.report(0.5, QStringLiteral("Learning"));
  trace.report(0.4, QString());                  // no stage: fraction only, never backwards
  EXPECT_EQ(trace.currentStage(), QStringLiteral("Learning"));
  EXPECT_DOUBLE_EQ(trace.fraction(), 0.5);
  auto stages = trace.stages();
  ASSERT_EQ(stages.size(), 2u);
  EXPECT_EQ(stages[0].name, QStringLiteral("Reading"));
  EXPECT_GE(stages[0].end_seconds, stages[0].start_seconds);
  EXPECT_LT(stages[1].end_seconds, 0);  // still running
  trace.finish();
  stages = trace.stages();
  EXPECT_GE(stages[1].end_seconds, stages[1].start_seconds);
}

TEST(RunInBackgroundTest, AnExceptionBecomesAnInternalError) {
  using Outcome = Result<int>;
  QFuture<Outcome> future = runInBackground<Outcome>(std::make_shared<JobTrace>(), [](Progress&) -> Outcome {
    throw std::runtime_error("boom");
  });
  future.waitForFinished();
  ASSERT_EQ(future.resultCount(), 1);
  const Outcome outcome = future.result();
  ASSERT_FALSE(outcome.has_value());
  EXPECT_EQ(outcome.error().code, ErrorCode::kInternal);
  EXPECT_EQ(outcome.error().message, "boom");
}

TEST(RunInBackgroundTest, AValueArrivesWithTheWorkersProgress) {
  using Outcome = Result<int>;
  auto trace = std::make_shared<JobTrace>();
  QFuture<Outcome> future = runInBackground<Outcome>(trace, [](Progress& progress) -> Outcome {
    progress.Report(0.5, "Half way");
    return 42;
  });
  future.waitForFinished();
  ASSERT_TRUE(future.result().has_value());
  EXPECT_EQ(future.result().value(), 42);
  ASSERT_EQ(trace->stages().size(), 1u);
  EXPECT_EQ(trace->stages()[0].name, QStringLiteral("Half way"));
  EXPECT_GE(trace->stages()[0].end_seconds, 0);  // closed when the worker returned
}

}  // namespace
}  // namespace deniable::ui
