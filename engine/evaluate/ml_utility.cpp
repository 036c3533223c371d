// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/ml_utility.h"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>

#include "engine/core/random.h"

namespace deniable {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

Error XgboostError(const char* what) {
  return InternalError(std::string("XGBoost: ") + what + ": " + XGBGetLastError());
}

// Owns a DMatrix / Booster handle.
struct DMatrixDeleter {
  void operator()(void* h) const { XGDMatrixFree(h); }
};
struct BoosterDeleter {
  void operator()(void* h) const { XGBoosterFree(h); }
};
using DMatrix = std::unique_ptr<void, DMatrixDeleter>;
using Booster = std::unique_ptr<void, BoosterDeleter>;

// Features of rows of one matrix (all columns but `skip`), row-major floats: numbers as their
// normalised value, categories as their code, missing as NaN.
std::vector<float> Features(const MixedMatrix& m, const std::vector<std::uint32_t>& rows,
                            const std::vector<std::size_t>& columns) {
  std::vector<float> out;
  out.reserve(rows.size() * columns.size());
  for (std::uint32_t r : rows) {
    const double* row = m.row(r);
    for (std::size_t c : columns) {
      const double x = row[c];
      const bool missing = x != x || (m.kinds[c] == MixedKind::kCategorical && x < 0);
      out.push_back(missing ? kNaN : static_cast<float>(x));
    }
  }
  return out;
}

struct Dataset {
  std::vector<float> x;
  std::vector<float> y;
  std::size_t rows = 0;
};

Result<DMatrix> MakeDMatrix(const Dataset& d, const std::vector<std::size_t>& columns,
                            const MixedTables& tables, unsigned threads) {
  DMatrixHandle handle = nullptr;
  if (XGDMatrixCreateFromMat_omp(d.x.data(), d.rows, columns.size(), kNaN, &handle,
                                 static_cast<int>(threads)) != 0) {
    return XgboostError("creating a matrix");
  }
  DMatrix matrix(handle);
  std::vector<const char*> names, types;
  for (std::size_t c : columns) {
    names.push_back(tables.columns[c].name.c_str());
    types.push_back(tables.columns[c].kind == MixedKind::kCategorical ? "c" : "q");
  }
  if (XGDMatrixSetStrFeatureInfo(handle, "feature_name", names.data(), names.size()) != 0 ||
      XGDMatrixSetStrFeatureInfo(handle, "feature_type", types.data(), types.size()) != 0) {
    return XgboostError("naming the features");
  }
  if (!d.y.empty() && XGDMatrixSetFloatInfo(handle, "label", d.y.data(), d.rows) != 0) {
    return XgboostError("setting the labels");
  }
  return matrix;
}

struct Task {
  bool classification = true;
  int classes = 2;
};

Result<Booster> Train(const DMatrix& train, const Task& task, const MlUtilityOptions& o,
                      Progress& progress) {
  BoosterHandle handle = nullptr;
  DMatrixHandle dmats[] = {train.get()};
  if (XGBoosterCreate(dmats, 1, &handle) != 0) return XgboostError("creating a model");
  Booster booster(handle);
  std::vector<std::pair<std::string, std::string>> params = {
      {"tree_method", "hist"},
      {"max_depth", std::to_string(o.max_depth)},
      {"eta", std::to_string(o.learning_rate)},
      {"nthread", std::to_string(o.threads)},
      {"seed", std::to_string(o.seed)},
      {"max_cat_to_onehot", "1"},
      {"verbosity", "0"}};
  if (!task.classification) {
    params.push_back({"objective", "reg:squarederror"});
  } else if (task.classes == 2) {
    params.push_back({"objective", "binary:logistic"});
  } else {
    params.push_back({"objective", "multi:softprob"});
    params.push_back({"num_class", std::to_string(task.classes)});
  }
  for (const auto& [key, value] : params) {
    if (XGBoosterSetParam(handle, key.c_str(), value.c_str()) != 0) {
      return XgboostError(("setting " + key).c_str());
    }
  }
  for (int round = 0; round < o.rounds; ++round) {
    if (progress.IsCancelled()) return Cancelled("cancelled");
    if (XGBoosterUpdateOneIter(handle, round, train.get()) != 0) return XgboostError("training");
    progress.Report(static_cast<double>(round + 1) / o.rounds, "");
  }
  return booster;
}

// Row-major predictions: one value per row (binary: P(class 1); regression: the value) or
// `classes` per row (multi:softprob).
Result<std::vector<float>> Predict(const Booster& booster, const DMatrix& data) {
  const char* config = R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0,)"
                       R"( "strict_shape": false})";
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0;
  const float* result = nullptr;
  if (XGBoosterPredictFromDMatrix(booster.get(), data.get(), config, &shape, &dim, &result) != 0) {
    return XgboostError("predicting");
  }
  std::size_t size = 1;
  for (bst_ulong i = 0; i < dim; ++i) size *= shape[i];
  return std::vector<float>(result, result + size);
}

// Average gain per feature name, as shares of their sum. The booster may name the features
// "f0", "f1", ... (their positions in `names`).
Result<std::map<std::string, double>> GainShares(const Booster& booster,
                                                 const std::vector<std::string>& names_in_order) {
  bst_ulong n = 0, dim = 0;
  const char** names = nullptr;
  const bst_ulong* shape = nullptr;
  const float* scores = nullptr;
  if (XGBoosterFeatureScore(booster.get(), R"({"importance_type": "gain"})", &n, &names, &dim,
                            &shape, &scores) != 0) {
    return XgboostError("feature importances");
  }
  std::map<std::string, double> out;
  double total = 0;
  for (bst_ulong i = 0; i < n; ++i) total += scores[i];
  for (bst_ulong i = 0; i < n; ++i) {
    std::string name = names[i];
    if (name.size() > 1 && name[0] == 'f' &&
        name.find_first_not_of("0123456789", 1) == std::string::npos) {
      const std::size_t position = std::stoul(name.substr(1));
      if (position < names_in_order.size()) name = names_in_order[position];
    }
    out[name] += total > 0 ? scores[i] / total : 0;
  }
  return out;
}

std::vector<std::uint32_t> SampleRows(std::size_t n, std::size_t count, Rng& rng) {
  std::vector<std::uint32_t> rows(n);
  std::iota(rows.begin(), rows.end(), 0u);
  Shuffle(std::span<std::uint32_t>(rows), rng);
  rows.resize(std::min(count, n));
  return rows;
}

// Class of each value of the target: categorical codes (missing = its own class) or, for a
// numeric target, nothing (regression).
struct TargetCoding {
  std::map<double, int> class_of;  // value → class
  float Label(double value) const {
    if (value != value) value = kMissingCategory;
    return static_cast<float>(class_of.at(value));
  }
};

int ArgMax(const std::vector<float>& p, std::size_t row, const Task& task) {
  if (task.classes == 2) return p[row] > 0.5f ? 1 : 0;
  const float* begin = p.data() + row * task.classes;
  return static_cast<int>(std::max_element(begin, begin + task.classes) - begin);
}

ModelScores Score(const std::vector<float>& p, const std::vector<float>& y, const Task& task) {
  ModelScores s;
  const std::size_t n = y.size();
  if (n == 0) return s;
  if (!task.classification) {
    double mean = 0;
    for (float v : y) mean += v;
    mean /= static_cast<double>(n);
    double residual = 0, total = 0;
    for (std::size_t i = 0; i < n; ++i) {
      residual += (y[i] - p[i]) * static_cast<double>(y[i] - p[i]);
      total += (y[i] - mean) * (y[i] - mean);
    }
    s.r2 = total > 0 ? 1 - residual / total : 0;
    return s;
  }
  double right = 0;
  for (std::size_t i = 0; i < n; ++i) right += ArgMax(p, i, task) == static_cast<int>(y[i]);
  s.accuracy = right / static_cast<double>(n);
  if (task.classes == 2) {
    std::vector<bool> positive;
    for (float v : y) positive.push_back(v == 1.0f);
    s.auc = AreaUnderCurve(p, positive);
    return s;
  }
  double sum = 0;
  int counted = 0;
  for (int c = 0; c < task.classes; ++c) {
    std::vector<float> scores;
    std::vector<bool> positive;
    for (std::size_t i = 0; i < n; ++i) {
      scores.push_back(p[i * task.classes + c]);
      positive.push_back(static_cast<int>(y[i]) == c);
    }
    const double auc = AreaUnderCurve(scores, positive);
    if (auc == auc) sum += auc, ++counted;
  }
  s.auc = counted > 0 ? sum / counted : std::numeric_limits<double>::quiet_NaN();
  return s;
}

}  // namespace

double AreaUnderCurve(const std::vector<float>& scores, const std::vector<bool>& positive) {
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](auto a, auto b) { return scores[a] < scores[b]; });
  double positives = 0, rank_sum = 0;
  for (std::size_t i = 0; i < order.size();) {  // average ranks over ties
    std::size_t j = i;
    while (j < order.size() && scores[order[j]] == scores[order[i]]) ++j;
    const double rank = (static_cast<double>(i) + static_cast<double>(j) + 1) / 2;
    for (std::size_t k = i; k < j; ++k) {
      if (positive[order[k]]) positives += 1, rank_sum += rank;
    }
    i = j;
  }
  const double negatives = static_cast<double>(scores.size()) - positives;
  if (positives == 0 || negatives == 0) return std::numeric_limits<double>::quiet_NaN();
  return (rank_sum - positives * (positives + 1) / 2) / (positives * negatives);
}

Result<MlUtilityReport> EvaluateMlUtility(const MixedTables& tables,
                                          const MlUtilityOptions& options, Progress& progress) {
  const int target = tables.ColumnIndex(options.target);
  if (target < 0) {
    return InvalidArgument("target: no compared column is named '" + options.target + "'");
  }
  const auto t = static_cast<std::size_t>(target);
  std::vector<std::size_t> features;
  for (std::size_t c = 0; c < tables.columns.size(); ++c) {
    if (c != t) features.push_back(c);
  }
  if (features.empty()) return InvalidArgument("target: no other column to learn it from");
  MlUtilityReport out;
  out.target = options.target;
  Task task;
  task.classification = tables.columns[t].kind == MixedKind::kCategorical;
  TargetCoding coding;
  const MixedMatrix* sets[] = {&tables.train, &tables.control, &tables.synthetic};
  if (task.classification) {
    for (const MixedMatrix* m : sets) {
      for (std::size_t r = 0; r < m->rows; ++r) coding.class_of.emplace(m->row(r)[t], 0);
    }
    int next = 0;
    for (auto& entry : coding.class_of) entry.second = next++;
    task.classes = next;
    if (task.classes < 2) {
      return InvalidArgument("target: '" + options.target + "' holds a single value");
    }
  }
  out.classification = task.classification;
  out.classes = task.classification ? task.classes : 0;
  SeededRng rng(options.seed + 4);
  // Rows with a target value (regression drops missing targets).
  const auto usable = [&](const MixedMatrix& m, std::size_t cap) {
    std::vector<std::uint32_t> rows;
    for (std::uint32_t r : SampleRows(m.rows, m.rows, rng)) {
      if (task.classification || m.row(r)[t] == m.row(r)[t]) rows.push_back(r);
      if (rows.size() == cap) break;
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  };
  const auto dataset = [&](const MixedMatrix& m, const std::vector<std::uint32_t>& rows) {
    Dataset d;
    d.rows = rows.size();
    d.x = Features(m, rows, features);
    for (std::uint32_t r : rows) {
      d.y.push_back(task.classification ? coding.Label(m.row(r)[t])
                                        : static_cast<float>(m.row(r)[t]));
    }
    return d;
  };
  const Dataset real = dataset(tables.train, usable(tables.train, options.max_rows));
  const Dataset synthetic = dataset(tables.synthetic, usable(tables.synthetic, options.max_rows));
  const Dataset test = dataset(tables.control, usable(tables.control, tables.control.rows));
  if (real.rows == 0 || synthetic.rows == 0 || test.rows == 0) {
    return InvalidArgument("target: '" + options.target +
                           "' needs rows with a value in the real, synthetic and control tables");
  }
  out.real_train_rows = real.rows;
  out.synthetic_train_rows = synthetic.rows;
  out.test_rows = test.rows;
  auto d_real = MakeDMatrix(real, features, tables, options.threads);
  if (!d_real) return d_real.error();
  auto d_synthetic = MakeDMatrix(synthetic, features, tables, options.threads);
  if (!d_synthetic) return d_synthetic.error();
  auto d_test = MakeDMatrix(test, features, tables, options.threads);
  if (!d_test) return d_test.error();
  SubProgress p_real(progress, 0, 0.35), p_synthetic(progress, 0.35, 0.7);
  progress.Report(0, "Training on real rows");
  auto real_model = Train(d_real.value(), task, options, p_real);
  if (!real_model) return real_model.error();
  progress.Report(0.35, "Training on synthetic rows");
  auto synthetic_model = Train(d_synthetic.value(), task, options, p_synthetic);
  if (!synthetic_model) return synthetic_model.error();
  auto p_trtr = Predict(real_model.value(), d_test.value());
  if (!p_trtr) return p_trtr.error();
  auto p_tstr = Predict(synthetic_model.value(), d_test.value());
  if (!p_tstr) return p_tstr.error();
  out.real_model = Score(p_trtr.value(), test.y, task);
  out.synthetic_model = Score(p_tstr.value(), test.y, task);
  if (task.classification) {
    double same = 0;
    for (std::size_t i = 0; i < test.rows; ++i) {
      same += ArgMax(p_trtr.value(), i, task) == ArgMax(p_tstr.value(), i, task);
    }
    out.agreement = same / static_cast<double>(test.rows);
  }
  std::vector<std::string> feature_names;
  for (std::size_t c : features) feature_names.push_back(tables.columns[c].name);
  auto gain_real = GainShares(real_model.value(), feature_names);
  if (!gain_real) return gain_real.error();
  auto gain_synthetic = GainShares(synthetic_model.value(), feature_names);
  if (!gain_synthetic) return gain_synthetic.error();
  for (std::size_t c : features) {
    const std::string& name = tables.columns[c].name;
    const auto get = [&](const std::map<std::string, double>& m) {
      auto it = m.find(name);
      return it == m.end() ? 0.0 : it->second;
    };
    out.importances.push_back({name, get(gain_real.value()), get(gain_synthetic.value())});
  }
  std::stable_sort(out.importances.begin(), out.importances.end(),
                   [](const auto& a, const auto& b) { return a.real > b.real; });

  // The distinguishing game: equally many real training and synthetic rows, every column.
  progress.Report(0.7, "Distinguishing real from synthetic rows");
  std::vector<std::size_t> all(tables.columns.size());
  std::iota(all.begin(), all.end(), std::size_t{0});
  const std::size_t each = std::min({tables.train.rows, tables.synthetic.rows, options.max_rows});
  const std::vector<std::uint32_t> real_rows = SampleRows(tables.train.rows, each, rng);
  const std::vector<std::uint32_t> synthetic_rows = SampleRows(tables.synthetic.rows, each, rng);
  // Interleave, shuffle, split.
  std::vector<std::pair<int, std::uint32_t>> pool;
  for (std::uint32_t r : real_rows) pool.push_back({0, r});
  for (std::uint32_t r : synthetic_rows) pool.push_back({1, r});
  Shuffle(std::span<std::pair<int, std::uint32_t>>(pool), rng);
  const auto test_count = static_cast<std::size_t>(options.test_share * pool.size());
  Dataset game_train, game_test;
  for (std::size_t i = 0; i < pool.size(); ++i) {
    Dataset& d = i < test_count ? game_test : game_train;
    const MixedMatrix& m = pool[i].first == 0 ? tables.train : tables.synthetic;
    const std::vector<float> x = Features(m, {pool[i].second}, all);
    d.x.insert(d.x.end(), x.begin(), x.end());
    d.y.push_back(static_cast<float>(pool[i].first));
    ++d.rows;
  }
  if (game_train.rows == 0 || game_test.rows == 0) {
    return InvalidArgument("the distinguishing game needs more real and synthetic rows");
  }
  auto dg_train = MakeDMatrix(game_train, all, tables, options.threads);
  if (!dg_train) return dg_train.error();
  auto dg_test = MakeDMatrix(game_test, all, tables, options.threads);
  if (!dg_test) return dg_test.error();
  SubProgress p_game(progress, 0.7, 1);
  auto game_model = Train(dg_train.value(), Task{true, 2}, options, p_game);
  if (!game_model) return game_model.error();
  auto p_game_test = Predict(game_model.value(), dg_test.value());
  if (!p_game_test) return p_game_test.error();
  const ModelScores game = Score(p_game_test.value(), game_test.y, Task{true, 2});
  out.distinguish_accuracy =
      EstimateRate(game.accuracy * game_test.rows, game_test.rows, options.confidence);
  out.distinguish_auc = game.auc;
  out.distinguish_test_rows = game_test.rows;
  return out;
}

}  // namespace deniable
