// SPDX-License-Identifier: Apache-2.0
// Helpers for the UI tests: wait for a background job through its finished() signal (no
// timing assumptions: generous timeouts only guard against hangs), the demo dataset's path,
// reading a written CSV back.
#pragma once

#include <functional>
#include <ostream>

#include <QFileInfo>
#include <QSignalSpy>
#include <QString>
#include <gtest/gtest.h>

#include "engine/core/progress.h"
#include "engine/io/csv_reader.h"
#include "ui/tasks/job_controller.h"
#include "ui/tasks/jobs.h"

// Readable QStrings in gtest failure messages (found by ADL: QString is in the global namespace).
inline void PrintTo(const QString& text, std::ostream* out) { *out << '"' << text.toStdString() << '"'; }

namespace deniable::ui::test_support {

struct JobOutcome {
  bool arrived = false;
  JobController::Kind kind = JobController::Kind::kNone;
  JobController::End end = JobController::End::kFailed;
  QString message;
};

// Calls `start` (which must start one job) and waits for that job's finished() signal.
inline JobOutcome runJob(JobController& jobs, const std::function<void()>& start,
                         int timeout_ms = 300'000) {
  QSignalSpy spy(&jobs, &JobController::finished);
  start();
  JobOutcome outcome;
  if (spy.isEmpty() && !spy.wait(timeout_ms)) return outcome;
  const QList<QVariant> arguments = spy.takeFirst();
  outcome.arrived = true;
  outcome.kind = arguments.at(0).value<JobController::Kind>();
  outcome.end = arguments.at(1).value<JobController::End>();
  outcome.message = arguments.at(2).toString();
  return outcome;
}

inline QString demoDataset() { return QStringLiteral(DENIABLE_DEMO_DATASET_SOURCE); }

// A CSV loaded as the session holds it (a test failure if it cannot be read).
inline std::shared_ptr<const LoadedData> loadCsv(const QString& path) {
  LoadRequest request;
  request.path = path;
  NullProgress progress;
  auto data = LoadData(request, progress);
  EXPECT_TRUE(data.has_value()) << (data ? "" : data.error().message);
  return data ? data.value() : nullptr;
}

// The demo dataset loaded as the session holds it.
inline std::shared_ptr<const LoadedData> loadDemo() { return loadCsv(demoDataset()); }

inline RawTable readCsvOrFail(const QString& path) {
  NullProgress progress;
  auto table = ReadCsv(path.toStdString(), CsvReadOptions{}, progress);
  EXPECT_TRUE(table.has_value()) << (table ? "" : table.error().message);
  return table ? std::move(table.value()) : RawTable{};
}

}  // namespace deniable::ui::test_support
