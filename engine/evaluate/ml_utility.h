// SPDX-License-Identifier: Apache-2.0
// Machine-learning utility of a release, with gradient-boosted trees (XGBoost 1.7, the Debian
// package libxgboost-dev, through its C API; why this library: engine/evaluate/README.md).
//
// For a target column (categorical → classification, numeric → regression) and the other
// compared columns as features (numbers by normalised value, categories as XGBoost's native
// categorical features, missing as missing):
// - train on synthetic, test on real (TSTR) against train on real, test on real (TRTR): both
//   models are tested on the control rows, which neither saw. Accuracy and AUC (one-vs-rest,
//   macro-averaged over the classes present in the test rows, for more than two classes) or R².
// - the agreement rate of the two models: the share of test rows on which they predict the same
//   class (Plausible Deniability paper, Bindschaedler et al. VLDB 2017, Table 3).
// - the distinguishing game (same paper, Table 5): a classifier is trained to tell real training
//   rows (label 0) from synthetic rows (label 1), equally many of each, and tested on 30% of the
//   rows held out: accuracy near 1/2 (AUC near 1/2) means the rows cannot be told apart.
// - feature importances (average gain, as shares summing to 1) of the TRTR and TSTR models.
// Fixed seeds and a fixed thread count make the results repeatable.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/result.h"
#include "engine/evaluate/attack_statistics.h"
#include "engine/evaluate/mixed_table.h"

namespace deniable {

struct MlUtilityOptions {
  std::string target;
  int rounds = 60;  // boosting rounds
  int max_depth = 6;
  double learning_rate = 0.3;
  double test_share = 0.3;       // distinguishing game: rows held out
  std::size_t max_rows = 50000;  // per training set (a random subset above it)
  std::uint64_t seed = 0;
  unsigned threads = 2;
  double confidence = 0.95;
};

struct ModelScores {
  double accuracy = 0;  // classification
  double auc = 0;       // classification
  double r2 = 0;        // regression
};

struct FeatureImportance {
  std::string name;
  double real = 0;       // TRTR model's share of the total gain
  double synthetic = 0;  // TSTR model's
};

struct MlUtilityReport {
  std::string target;
  bool classification = true;
  int classes = 0;
  std::size_t real_train_rows = 0, synthetic_train_rows = 0, test_rows = 0;
  ModelScores real_model;             // trained on real rows (TRTR)
  ModelScores synthetic_model;        // trained on synthetic rows (TSTR)
  std::optional<double> agreement;    // classification only
  RateEstimate distinguish_accuracy;  // Wilson interval over the held-out rows
  double distinguish_auc = 0;
  std::size_t distinguish_test_rows = 0;
  std::vector<FeatureImportance> importances;  // by the TRTR share, largest first
};

// kInvalidArgument naming the target (unknown, one value, no feature left); kInternal with
// XGBoost's message when the library fails; kCancelled.
Result<MlUtilityReport> EvaluateMlUtility(const MixedTables& tables,
                                          const MlUtilityOptions& options, Progress& progress);

// Area under the ROC curve of `scores` for the positives (Mann-Whitney, ties count half).
// NaN when there are no positives or no negatives.
double AreaUnderCurve(const std::vector<float>& scores, const std::vector<bool>& positive);

}  // namespace deniable
