// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/attacks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include "engine/core/random.h"

namespace deniable {
namespace {

// The bytes of a row's values on `columns`: a hash key (equal values, equal bytes: NaN is
// always the same quiet NaN, see mixed_table.cpp).
std::string KeyOf(const double* row, const std::vector<std::size_t>& columns) {
  std::string key(columns.size() * sizeof(double), '\0');
  for (std::size_t j = 0; j < columns.size(); ++j) {
    std::memcpy(key.data() + j * sizeof(double), row + columns[j], sizeof(double));
  }
  return key;
}

// `count` distinct random row indices below n (all of them, shuffled, when count ≥ n).
std::vector<std::uint32_t> SampleRows(std::size_t n, std::size_t count, Rng& rng) {
  std::vector<std::uint32_t> rows(n);
  for (std::size_t i = 0; i < n; ++i) rows[i] = static_cast<std::uint32_t>(i);
  count = std::min(count, n);
  for (std::size_t i = 0; i < count; ++i) {  // partial Fisher-Yates
    std::swap(rows[i], rows[i + UniformBelow(rng, n - i)]);
  }
  rows.resize(count);
  return rows;
}

struct Predicate {
  std::vector<std::size_t> columns;  // sorted
  std::vector<double> values;        // per column
};

std::uint64_t Bits(double x) {
  std::uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

// Per column, the rows holding each value (by bit pattern: NaN is always the same quiet NaN,
// see mixed_table.cpp). A predicate's matches are found from its shortest list, checking the
// other columns on the rows themselves.
class PostingIndex {
 public:
  PostingIndex(const MixedMatrix& m, const std::vector<std::size_t>& columns)
      : m_(m), postings_(m.columns) {
    for (std::size_t c : columns) {
      for (std::size_t r = 0; r < m.rows; ++r) {
        postings_[c][Bits(m.row(r)[c])].push_back(static_cast<std::uint32_t>(r));
      }
    }
  }
  // The rows satisfying `p`, at most `limit` of them.
  std::vector<std::uint32_t> Matches(const Predicate& p, std::size_t limit) const {
    const std::vector<std::uint32_t>* shortest = nullptr;
    for (std::size_t j = 0; j < p.columns.size(); ++j) {
      const auto& map = postings_[p.columns[j]];
      auto it = map.find(Bits(p.values[j]));
      if (it == map.end()) return {};
      if (shortest == nullptr || it->second.size() < shortest->size()) shortest = &it->second;
    }
    std::vector<std::uint32_t> out;
    if (shortest == nullptr) return out;
    for (std::uint32_t r : *shortest) {
      const double* row = m_.row(r);
      bool all = true;
      for (std::size_t j = 0; j < p.columns.size() && all; ++j) {
        all = Bits(row[p.columns[j]]) == Bits(p.values[j]);
      }
      if (!all) continue;
      out.push_back(r);
      if (out.size() >= limit) break;
    }
    return out;
  }
  bool SinglesOut(const Predicate& p) const { return Matches(p, 2).size() == 1; }

 private:
  const MixedMatrix& m_;
  std::vector<std::unordered_map<std::uint64_t, std::vector<std::uint32_t>>> postings_;
};

std::vector<std::size_t> RandomColumns(const std::vector<std::size_t>& knowledge, int count,
                                       Rng& rng) {
  std::vector<std::size_t> pool = knowledge;
  const std::size_t k = std::min<std::size_t>(pool.size(), static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < k; ++i) {
    std::swap(pool[i], pool[i + UniformBelow(rng, pool.size() - i)]);
  }
  pool.resize(k);
  std::sort(pool.begin(), pool.end());
  return pool;
}

}  // namespace

double SinglingOutIntegral(double n, double w) {
  if (w <= 0) return 0;
  if (w >= 1) return 1 / (n + 1);
  const double log_keep = std::log1p(-w);
  return -std::expm1((n + 1) * log_keep) / (n + 1) - w * std::exp(n * log_keep);
}

double FitSinglingOutModel(const std::vector<double>& sizes, const std::vector<double>& successes,
                           double at) {
  double best_error = std::numeric_limits<double>::infinity(), best_value = 0;
  for (int i = 0; i <= 900; ++i) {  // w on a log grid over [1e-9, 1]
    const double w = std::pow(10.0, -9.0 + i / 100.0);
    double gy = 0, gg = 0;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      const double g = SinglingOutIntegral(sizes[k], w);
      gy += g * successes[k];
      gg += g * g;
    }
    const double c = gg > 0 ? std::max(0.0, gy / gg) : 0;
    double error = 0;
    for (std::size_t k = 0; k < sizes.size(); ++k) {
      const double r = successes[k] - c * SinglingOutIntegral(sizes[k], w);
      error += r * r;
    }
    if (error < best_error) {
      best_error = error;
      best_value = c * SinglingOutIntegral(at, w);
    }
  }
  return best_value;
}

Result<SinglingOutResult> SinglingOutAttack(const MixedTables& tables, const AttackOptions& options,
                                            Progress& progress) {
  if (options.knowledge.empty()) {
    return InvalidArgument("quasi-identifiers: singling out needs at least one column");
  }
  SeededRng rng(options.seed);
  const PostingIndex synthetic(tables.synthetic, options.knowledge),
      train(tables.train, options.knowledge), control(tables.control, options.knowledge);
  std::set<std::pair<std::vector<std::size_t>, std::string>> seen;
  std::vector<Predicate> predicates;
  const std::size_t max_tries = 20 * options.attacks;
  progress.Report(0, "Singling out: building predicates");
  for (std::size_t attempt = 0;
       attempt < max_tries && predicates.size() < options.attacks && tables.synthetic.rows > 0;
       ++attempt) {
    if (attempt % 1024 == 0 && progress.IsCancelled()) return Cancelled("cancelled");
    Predicate p;
    p.columns = RandomColumns(options.knowledge, options.predicate_columns, rng);
    const double* row = tables.synthetic.row(UniformBelow(rng, tables.synthetic.rows));
    for (std::size_t c : p.columns) p.values.push_back(row[c]);
    if (!synthetic.SinglesOut(p)) continue;
    if (!seen.insert({p.columns, KeyOf(row, p.columns)}).second) continue;
    predicates.push_back(std::move(p));
  }
  progress.Report(0.5, "Singling out: checking predicates");
  double train_successes = 0;
  for (const Predicate& p : predicates) train_successes += train.SinglesOut(p) ? 1 : 0;

  SinglingOutResult out;
  out.predicates = predicates.size();
  const std::size_t n_train = tables.train.rows, n_control = tables.control.rows;
  double control_successes = 0;
  if (n_control == n_train || n_control == 0) {
    for (const Predicate& p : predicates) control_successes += control.SinglesOut(p) ? 1 : 0;
  } else {
    // Successes on random control subsets (ranks of a permutation: a row is in the subset of
    // size k when its rank is below k), then the size model read at |training|.
    out.control_corrected = true;
    std::vector<std::vector<std::uint32_t>> matches;
    for (const Predicate& p : predicates) matches.push_back(control.Matches(p, n_control));
    std::vector<double> sizes, successes;
    const double smallest = static_cast<double>(std::min<std::size_t>(1000, n_control));
    for (int step = 0; step < 10; ++step) {
      const auto size = static_cast<std::size_t>(
          smallest + (static_cast<double>(n_control) - smallest) * step / 9.0);
      for (int repeat = 0; repeat < 5; ++repeat) {
        std::vector<std::uint32_t> rank(n_control);
        const std::vector<std::uint32_t> order = SampleRows(n_control, n_control, rng);
        for (std::size_t i = 0; i < n_control; ++i) rank[order[i]] = static_cast<std::uint32_t>(i);
        double hits = 0;
        for (const std::vector<std::uint32_t>& rows : matches) {
          int inside = 0;
          for (std::size_t i = 0; i < rows.size() && inside < 2; ++i) {
            inside += rank[rows[i]] < size ? 1 : 0;
          }
          hits += inside == 1 ? 1 : 0;
        }
        sizes.push_back(static_cast<double>(size));
        successes.push_back(hits);
      }
      if (progress.IsCancelled()) return Cancelled("cancelled");
    }
    control_successes =
        std::min(static_cast<double>(predicates.size()),
                 FitSinglingOutModel(sizes, successes, static_cast<double>(n_train)));
  }
  out.control_size_corrected_successes = control_successes;
  // Naive: each column's value from its own random synthetic row.
  double naive_successes = 0;
  std::size_t naive_trials = 0;
  for (std::size_t i = 0; i < predicates.size() && tables.synthetic.rows > 0; ++i) {
    Predicate p;
    p.columns = RandomColumns(options.knowledge, options.predicate_columns, rng);
    for (std::size_t c : p.columns) {
      p.values.push_back(tables.synthetic.row(UniformBelow(rng, tables.synthetic.rows))[c]);
    }
    naive_successes += train.SinglesOut(p) ? 1 : 0;
    ++naive_trials;
  }
  const double z = options.confidence;
  out.risk = CombineRates(EstimateRate(train_successes, predicates.size(), z),
                          EstimateRate(control_successes, predicates.size(), z),
                          EstimateRate(naive_successes, naive_trials, z));
  progress.Report(1, "Singling out done");
  return out;
}

namespace {

// For each target row: the synthetic rows at the smallest distance (at most tie_cap).
Result<std::vector<std::vector<std::uint32_t>>> NearestSets(const MixedMatrix& targets,
                                                            const MixedMatrix& synthetic,
                                                            const AttackOptions& options,
                                                            Progress& progress) {
  auto nearest = NearestWithTies(targets, synthetic, options.tie_cap, options.threads, progress);
  if (!nearest) return nearest.error();
  std::vector<std::vector<std::uint32_t>> out;
  out.reserve(nearest->size());
  for (NearestSet& set : nearest.value()) out.push_back(std::move(set.rows));
  return out;
}

struct Targets {
  std::vector<std::uint32_t> train, control;
};

Targets PickTargets(const MixedTables& tables, const AttackOptions& options, Rng& rng) {
  const std::size_t count = std::min({options.attacks, tables.control.rows, tables.train.rows});
  return {SampleRows(tables.train.rows, count, rng), SampleRows(tables.control.rows, count, rng)};
}

}  // namespace

Result<LinkabilityResult> LinkabilityAttack(const MixedTables& tables, const AttackOptions& options,
                                            Progress& progress) {
  if (options.knowledge.size() < 2) {
    return InvalidArgument(
        "quasi-identifiers: linkability needs at least two columns (split into two halves)");
  }
  SeededRng rng(options.seed + 1);
  LinkabilityResult out;
  const std::size_t half = (options.knowledge.size() + 1) / 2;
  out.columns_a.assign(options.knowledge.begin(), options.knowledge.begin() + half);
  out.columns_b.assign(options.knowledge.begin() + half, options.knowledge.end());
  const Targets targets = PickTargets(tables, options, rng);
  const MixedMatrix synthetic_a = SelectColumns(tables.synthetic, out.columns_a);
  const MixedMatrix synthetic_b = SelectColumns(tables.synthetic, out.columns_b);
  double successes[2] = {0, 0};
  const MixedMatrix* sources[2] = {&tables.train, &tables.control};
  const std::vector<std::uint32_t>* rows[2] = {&targets.train, &targets.control};
  for (int s = 0; s < 2; ++s) {
    const MixedMatrix a = SelectColumns(*sources[s], out.columns_a, *rows[s]);
    const MixedMatrix b = SelectColumns(*sources[s], out.columns_b, *rows[s]);
    SubProgress pa(progress, s * 0.5, s * 0.5 + 0.25), pb(progress, s * 0.5 + 0.25, s * 0.5 + 0.5);
    auto near_a = NearestSets(a, synthetic_a, options, pa);
    if (!near_a) return near_a.error();
    auto near_b = NearestSets(b, synthetic_b, options, pb);
    if (!near_b) return near_b.error();
    for (std::size_t t = 0; t < a.rows; ++t) {
      const auto& x = near_a.value()[t];
      const auto& y = near_b.value()[t];
      bool meet = false;
      for (std::size_t i = 0, j = 0; i < x.size() && j < y.size() && !meet;) {
        if (x[i] == y[j])
          meet = true;
        else if (x[i] < y[j])
          ++i;
        else
          ++j;
      }
      successes[s] += meet ? 1 : 0;
    }
  }
  double naive = 0;
  for (std::size_t t = 0; t < targets.train.size(); ++t) {
    naive += UniformBelow(rng, tables.synthetic.rows) == UniformBelow(rng, tables.synthetic.rows)
                 ? 1
                 : 0;
  }
  const std::size_t n = targets.train.size();
  out.risk = CombineRates(EstimateRate(successes[0], n, options.confidence),
                          EstimateRate(successes[1], n, options.confidence),
                          EstimateRate(naive, n, options.confidence));
  return out;
}

Result<InferenceResult> InferenceAttack(const MixedTables& tables, const AttackOptions& options,
                                        Progress& progress) {
  std::vector<std::size_t> knowledge;
  for (std::size_t c : options.knowledge) {
    if (c != options.secret) knowledge.push_back(c);
  }
  if (knowledge.empty()) {
    return InvalidArgument(
        "quasi-identifiers: inference needs at least one column besides the sensitive one");
  }
  SeededRng rng(options.seed + 2);
  const MixedColumn& secret = tables.columns[options.secret];
  const bool numeric = secret.kind == MixedKind::kNumeric;
  const double range = secret.max > secret.min ? secret.max - secret.min : 1.0;
  const auto raw = [&](double x) { return secret.min + x * range; };
  const auto right = [&](double guess, double truth) {
    if (!numeric) return guess == truth;
    if (guess != guess || truth != truth) return guess != guess && truth != truth;
    return std::abs(raw(guess) - raw(truth)) <= options.numeric_tolerance * std::abs(raw(truth));
  };
  const std::size_t s_col = options.secret;
  const Targets targets = PickTargets(tables, options, rng);
  const MixedMatrix synthetic = SelectColumns(tables.synthetic, knowledge);
  double successes[2] = {0, 0};
  const MixedMatrix* sources[2] = {&tables.train, &tables.control};
  const std::vector<std::uint32_t>* rows[2] = {&targets.train, &targets.control};
  for (int s = 0; s < 2; ++s) {
    const MixedMatrix known = SelectColumns(*sources[s], knowledge, *rows[s]);
    SubProgress part(progress, s * 0.5, s * 0.5 + 0.5);
    auto nearest = NearestSets(known, synthetic, options, part);
    if (!nearest) return nearest.error();
    for (std::size_t t = 0; t < known.rows; ++t) {
      std::vector<double> values;
      for (std::uint32_t r : nearest.value()[t]) values.push_back(tables.synthetic.row(r)[s_col]);
      if (values.empty()) continue;
      double guess;
      if (numeric) {  // median of the non-missing values (missing when all are)
        std::vector<double> present;
        for (double v : values) {
          if (v == v) present.push_back(v);
        }
        if (present.empty()) {
          guess = values[0];
        } else {
          std::nth_element(present.begin(), present.begin() + present.size() / 2, present.end());
          guess = present[present.size() / 2];
        }
      } else {  // majority; ties to the smallest code
        std::map<double, int> votes;
        for (double v : values) ++votes[v];
        guess = votes.begin()->first;
        int most = 0;
        for (const auto& [value, count] : votes) {
          if (count > most) most = count, guess = value;
        }
      }
      successes[s] += right(guess, sources[s]->row((*rows[s])[t])[s_col]) ? 1 : 0;
    }
  }
  double naive = 0;
  for (std::uint32_t r : targets.train) {
    naive += right(tables.synthetic.row(UniformBelow(rng, tables.synthetic.rows))[s_col],
                   tables.train.row(r)[s_col])
                 ? 1
                 : 0;
  }
  const std::size_t n = targets.train.size();
  InferenceResult out;
  out.risk = CombineRates(EstimateRate(successes[0], n, options.confidence),
                          EstimateRate(successes[1], n, options.confidence),
                          EstimateRate(naive, n, options.confidence));
  return out;
}

}  // namespace deniable
