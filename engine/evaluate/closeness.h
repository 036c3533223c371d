// SPDX-License-Identifier: Apache-2.0
// How close the synthetic rows come to real ones: exact copies, and the distance to the closest
// record (DCR) in the training rows against the same distance in the control rows.
//
// Copies: a synthetic row equal to a real row on every compared column (mixed_table.h: numbers
// by value, the rest by text, missing equal to missing). Copies of rows that are unique in their
// table (no other row of that table has the same values) are counted separately: those are the
// copies that point at one person. The same counts against the control rows are the baseline:
// a generator that never saw the control rows copies them only by chance.
//
// DCR: for up to `max_rows` random synthetic rows, the mixed distance to the nearest of m random
// training rows and to the nearest of m random control rows, m = min(|training|, |control|), so
// that both sets are equally large. A synthetic row independent of which real rows were used for
// training is closer to either set with the same probability, so the share closer to training
// (ties count half) is 1/2 in expectation; well above 1/2 means the release is drawn towards its
// training rows. The share gets a Wilson interval (attack_statistics.h). A release of copies
// scores m/|training| + (1 − m/|training|)/2 there (the copied row is in the sample with
// probability m/|training|): the distances to the whole training set (to_train_all) show the
// copies themselves.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/evaluate/attack_statistics.h"
#include "engine/evaluate/mixed_table.h"

namespace deniable {

struct CopyCounts {
  std::uint64_t synthetic_rows = 0;
  std::uint64_t copies_of_train = 0;         // synthetic rows equal to some training row
  std::uint64_t copies_of_unique_train = 0;  // ... to a training row unique in the training rows
  std::uint64_t train_rows_copied = 0;       // distinct training rows reproduced
  std::uint64_t copies_of_control = 0;       // baseline, against the control rows
  std::uint64_t copies_of_unique_control = 0;
  std::uint64_t control_rows_copied = 0;
};

CopyCounts CountCopies(const MixedTables& tables);

struct DistanceSummary {
  double mean = 0;
  double p05 = 0;  // 5th percentile
  double median = 0;
  double zero_share = 0;  // share of rows at distance 0
};

struct DcrReport {
  std::size_t synthetic_rows = 0;        // evaluated
  std::size_t reference_rows = 0;        // m, in each of the two sets
  DistanceSummary to_train, to_control;  // m rows each
  DistanceSummary to_train_all;          // every training row
  RateEstimate closer_to_train;          // ties count half
};

struct DcrOptions {
  std::size_t max_rows = 10000;
  std::uint64_t seed = 0;
  unsigned threads = 2;
  double confidence = 0.95;
};

Result<DcrReport> DistanceToClosestRecord(const MixedTables& tables, const DcrOptions& options,
                                          Progress& progress);

DistanceSummary Summarise(std::vector<double> distances);

}  // namespace deniable
