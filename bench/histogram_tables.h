// SPDX-License-Identifier: Apache-2.0
// Accuracy tables of the private adaptive histograms (bench/histogram_bench.cpp --tables),
// printed as markdown for docs/adaptive-histograms.md:
//   (a) strings: the fraction of real records recovered verbatim in the synthetic multiset, by
//       the frequency of their value (paper Figs. 8/9), improved / basic / direct at ε 0.1/1/10;
//   (b) mplsstops coordinates: Indyk's earth-mover approximation (paper Fig. 5) by depth, with
//       the resampling baseline;
//   (c) numeric columns: 1-way TVD on a fine grid and the mass placed where the data has none,
//       adaptive histogram vs 20/32 equal-width bins over the true [min, max];
//   (d) accuracy vs the threshold scale c (b = c·ln k/ε), and (e) the three discount functions.
// Every algorithm gets the same TOTAL ε: improved 2·(ε/4) + ε/2; basic ε/2 over 20 levels + ε/2;
// direct 0.95ε for the synthesis + 0.05ε for a noisy n; equal-width ε on its counts. Runs are
// seeded (reproducible, NOT private releases) and averaged over `seeds` seeds.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/histogram_data.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/histogram/column_histograms.h"

namespace deniable::bench {

inline constexpr double kEpsilons[] = {0.1, 1.0, 10.0};

inline PrivacyAccountant Unlimited() { return PrivacyAccountant::Create({1e300, 0.0}).value(); }

inline HistogramOptions ImprovedAt(double epsilon, double c = 1.0,
                                   DiscountFunction f = DiscountFunction::kProportional) {
  HistogramOptions o;
  o.adaptive.epsilon = epsilon / 4;  // spends ε/2
  o.adaptive.threshold_scale = c;
  o.adaptive.discount_function = f;
  o.counts_epsilon = epsilon / 2;
  return o;
}

inline HistogramOptions BasicAt(double epsilon) {
  HistogramOptions o;
  o.algorithm = HistogramAlgorithm::kBasic;
  o.adaptive.max_depth = 20;
  o.adaptive.epsilon = EvenShare(epsilon / 2, 20);
  o.counts_epsilon = epsilon / 2;
  return o;
}

inline HistogramOptions DirectAt(double epsilon, std::size_t n, Rng& rng) {
  HistogramOptions o;
  o.algorithm = HistogramAlgorithm::kDirect;
  o.direct.epsilon = 0.95 * epsilon;
  o.direct.max_depth = 20;
  const auto noisy_n = GeometricMechanism::Create(0.05 * epsilon, 1)->AddNoise(
      static_cast<std::int64_t>(n), rng);
  o.direct_total = std::max<std::int64_t>(0, noisy_n);
  return o;
}

inline HistogramOptions AlgorithmAt(int algorithm, double epsilon, std::size_t n, Rng& rng) {
  if (algorithm == 0) return ImprovedAt(epsilon);
  if (algorithm == 1) return BasicAt(epsilon);
  return DirectAt(epsilon, n, rng);
}
inline const char* kAlgorithms[] = {"improved", "basic", "direct"};

// ---- (a) strings: Figs. 8/9 ------------------------------------------------------------
struct StringScore {
  std::vector<double> recovered;  // per frequency bucket: fraction of the bucket's records
  double all = 0;                 // fraction of all records
  double spurious = 0;            // synthetic records whose value is not a real value
};

inline int FrequencyBucket(double f) {
  int b = 0;
  for (double edge = 2; f >= edge && b < 7; edge *= 4) ++b;  // 1 | 2-7 | 8-31 | ... | >= 8192
  return b;
}
inline const char* kBucketNames[] = {"1", "2-7", "8-31", "32-127", "128-511", "512-2047",
                                     "2048-8191", ">=8192"};

inline StringScore ScoreStrings(const std::map<std::string, double>& real,
                                const std::map<std::string, double>& synthetic) {
  StringScore s;
  s.recovered.assign(8, 0);
  std::vector<double> size(8, 0);
  double n = 0, found = 0, synthetic_total = 0, spurious = 0;
  for (const auto& [text, f] : real) {
    const auto it = synthetic.find(text);
    const double hit = it == synthetic.end() ? 0 : std::min(f, it->second);
    s.recovered[static_cast<std::size_t>(FrequencyBucket(f))] += hit;
    size[static_cast<std::size_t>(FrequencyBucket(f))] += f;
    n += f;
    found += hit;
  }
  for (const auto& [text, c] : synthetic) {
    synthetic_total += c;
    if (!real.count(text)) spurious += c;
  }
  for (std::size_t b = 0; b < 8; ++b) s.recovered[b] = size[b] > 0 ? s.recovered[b] / size[b] : -1;
  s.all = found / n;
  s.spurious = synthetic_total > 0 ? spurious / synthetic_total : 0;
  return s;
}

// The synthetic multiset: every bin's count (clamped at 0, and 0 below `floor`) copies of its
// Draw(): the string itself for a verbatim bin, the shortest member of a prefix region else.
inline std::map<std::string, double> StringSynthesis(const StringHistogram& h,
                                                     std::int64_t floor) {
  std::map<std::string, double> out;
  SeededRng unused(0);
  for (std::size_t i = 0; i < h.bins.size(); ++i) {
    const auto c = static_cast<double>(FlooredCount(h.bins[i].noisy_count, floor));
    if (c > 0) out[h.trie.Draw(h.leaves[i], unused)] += c;
  }
  return out;
}

// Scores without and with CountFloor (direct synthesis: no floor, its counts are allocations).
inline std::pair<StringScore, StringScore> RunStrings(const std::vector<std::string>& texts,
                                                      const HistogramOptions& o,
                                                      std::uint64_t seed,
                                                      const std::map<std::string, double>& real) {
  SeededRng rng(seed);
  NullProgress progress;
  auto accountant = Unlimited();
  StringHistogramOptions options;
  options.histogram = o;
  auto h = LearnStringHistogram(texts, options, accountant, "s", "all", rng, progress);
  if (!h) {
    StringScore refused;
    refused.all = refused.spurious = std::nan("");
    refused.recovered.assign(8, std::nan(""));
    return {refused, refused};
  }
  const std::int64_t floor = o.algorithm == HistogramAlgorithm::kDirect
                                 ? 0
                                 : CountFloor(h->bins.size(), o.counts_epsilon);
  return {ScoreStrings(real, StringSynthesis(*h, 0)), ScoreStrings(real, StringSynthesis(*h, floor))};
}

inline void StringTables(int seeds) {
  struct Source {
    const char* file;
    const char* column;
  };
  for (Source source : {Source{"mplsstops.csv", "neighborhood"}, Source{"adult.csv", "occupation"},
                        Source{"adult.csv", "native-country"}, Source{"mplsstops.csv", "date"}}) {
    auto table = LoadShared(source.file);
    if (!table) continue;
    const std::vector<std::string> texts = Texts(*table, source.column);
    std::map<std::string, double> real;
    for (const auto& t : texts) real[t] += 1;
    std::printf("\n#### %s `%s` (%zu records, %zu distinct values)\n\n", source.file,
                source.column, texts.size(), real.size());
    std::vector<double> size(8, 0);
    for (const auto& [text, f] : real) size[static_cast<std::size_t>(FrequencyBucket(f))] += f;
    std::printf("| algorithm | ε |");
    for (std::size_t b = 0; b < 8; ++b) {
      if (size[b] > 0) std::printf(" f %s |", kBucketNames[b]);
    }
    std::printf(" all | spurious | all, floor | spurious, floor |\n|---|---|");
    for (std::size_t b = 0; b < 8; ++b) {
      if (size[b] > 0) std::printf("---|");
    }
    std::printf("---|---|---|---|\n| (records) | |");
    for (std::size_t b = 0; b < 8; ++b) {
      if (size[b] > 0) std::printf(" %.0f |", size[b]);
    }
    std::printf(" %zu | | | |\n", texts.size());
    for (int algorithm = 0; algorithm < 3; ++algorithm) {
      for (double epsilon : kEpsilons) {
        StringScore mean, floored;
        mean.recovered.assign(8, 0);
        for (int s = 0; s < seeds; ++s) {
          SeededRng rng(1000 + static_cast<std::uint64_t>(s));
          const HistogramOptions o = AlgorithmAt(algorithm, epsilon, texts.size(), rng);
          const auto [score, with_floor] =
              RunStrings(texts, o, 7 + static_cast<std::uint64_t>(s), real);
          for (std::size_t b = 0; b < 8; ++b) mean.recovered[b] += score.recovered[b] / seeds;
          mean.all += score.all / seeds;
          mean.spurious += score.spurious / seeds;
          floored.all += with_floor.all / seeds;
          floored.spurious += with_floor.spurious / seeds;
        }
        std::printf("| %s | %g |", kAlgorithms[algorithm], epsilon);
        for (std::size_t b = 0; b < 8; ++b) {
          if (size[b] > 0) std::printf(" %.3f |", mean.recovered[b]);
        }
        std::printf(" %.3f | %.3f | %.3f | %.3f |\n", mean.all, mean.spurious, floored.all,
                    floored.spurious);
      }
    }
  }
}

// ---- (b) coordinates: Fig. 5 -----------------------------------------------------------
// Cumulative Σ_{depth <= D} Σ_cells diameter × |real − w·synthetic| / n, for D = 0..K, cells of
// the geo quadtree; w scales the synthetic multiset to the real total.
inline std::vector<double> EarthMover(const GeoDecomposition& d, std::vector<std::uint64_t> real,
                                      std::vector<std::uint64_t> synthetic) {
  std::sort(real.begin(), real.end());
  std::sort(synthetic.begin(), synthetic.end());
  const double w = synthetic.empty() ? 0 : static_cast<double>(real.size()) / synthetic.size();
  const std::uint32_t k = d.levels();
  std::vector<double> profile(k + 1, 0);
  double cumulative = 0;
  for (std::uint32_t depth = 0; depth <= k; ++depth) {
    const std::uint32_t shift = 2 * (k - depth);
    auto prefix = [shift](std::uint64_t key) { return shift >= 64 ? 0 : key >> shift; };
    const double diameter =
        std::ldexp(1.0, static_cast<int>(k - depth)) * d.resolution() * std::sqrt(2.0);
    std::size_t i = 0, j = 0;
    double sum = 0;
    while (i < real.size() || j < synthetic.size()) {
      const std::uint64_t p = std::min(i < real.size() ? prefix(real[i]) : ~0ULL,
                                       j < synthetic.size() ? prefix(synthetic[j]) : ~0ULL);
      double r = 0, s = 0;
      while (i < real.size() && prefix(real[i]) == p) ++i, r += 1;
      while (j < synthetic.size() && prefix(synthetic[j]) == p) ++j, s += 1;
      sum += std::fabs(r - w * s);
    }
    cumulative += diameter * sum / static_cast<double>(real.size());
    profile[depth] = cumulative;
  }
  return profile;
}

inline std::vector<std::uint64_t> GeoSynthesis(const GeoHistogram& h, std::int64_t floor,
                                               Rng& rng) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i < h.cells.size(); ++i) {
    for (std::int64_t c = 0; c < FlooredCount(h.cells[i].noisy_count, floor); ++c) {
      out.push_back(h.decomposition.Draw(h.leaves[i], rng));
    }
  }
  return out;
}

inline std::vector<GeoPoint> MplsPoints() {
  auto table = LoadShared("mplsstops.csv");
  if (!table) return {};
  const auto lat = Numbers(*table, "lat");
  const auto lon = Numbers(*table, "long");
  std::vector<GeoPoint> points;
  for (std::size_t i = 0; i < lat->values.size() && i < lon->values.size(); ++i) {
    points.push_back({lat->values[i], lon->values[i]});
  }
  return points;
}

// The profile without and with CountFloor (none for direct synthesis); NaN when refused.
inline std::pair<std::vector<double>, std::vector<double>> RunGeo(
    const std::vector<GeoPoint>& points, const HistogramOptions& o, const GeoBox& box,
    std::uint64_t seed) {
  SeededRng rng(seed);
  NullProgress progress;
  auto accountant = Unlimited();
  GeoHistogramOptions options;
  options.box = box;
  options.histogram = o;
  auto h = LearnGeoHistogram(points, options, accountant, "geo", "all", rng, progress);
  if (!h) {
    const std::vector<double> refused(40, std::nan(""));
    return {refused, refused};
  }
  const std::vector<std::uint64_t> real = *h->decomposition.ToValues(points);
  const std::int64_t floor = o.algorithm == HistogramAlgorithm::kDirect
                                 ? 0
                                 : CountFloor(h->cells.size(), o.counts_epsilon);
  auto raw = EarthMover(h->decomposition, real, GeoSynthesis(*h, 0, rng));
  return {raw, EarthMover(h->decomposition, real, GeoSynthesis(*h, floor, rng))};
}

inline const GeoBox kCityBox{.lat_lo = 44, .lat_hi = 46, .lon_lo = -94, .lon_hi = -92};

inline void GeoTable(int seeds, const GeoBox& box, const char* title) {
  const std::vector<GeoPoint> points = MplsPoints();
  if (points.empty()) return;
  const GeoDecomposition d = GeoDecomposition::Create(1e-5, box).value();
  std::vector<std::uint32_t> depths;
  for (std::uint32_t depth = d.levels() % 2; depth <= d.levels(); depth += 2) {
    if (depth + 18 >= d.levels()) depths.push_back(depth);
  }
  std::printf("\n#### mplsstops (`lat`, `long`), %zu points, %s at 1e-5° (%u levels)\n\n",
              points.size(), title, d.levels());
  std::printf("Cumulative earth-mover approximation up to depth D, degrees per record "
              "(synthetic counts scaled to n; \"floor\": CountFloor applied).\n\n");
  std::printf("| algorithm | ε |");
  for (std::uint32_t depth : depths) std::printf(" D=%u |", depth);
  std::printf("\n|---|---|");
  for (std::size_t i = 0; i < depths.size(); ++i) std::printf("---|");
  std::printf("\n");
  auto print = [&](const std::string& name, const std::string& epsilon,
                   const std::vector<double>& p) {
    std::printf("| %s | %s |", name.c_str(), epsilon.c_str());
    for (std::uint32_t depth : depths) std::printf(" %.4f |", p[depth]);
    std::printf("\n");
  };
  for (int algorithm = 0; algorithm < 3; ++algorithm) {
    for (bool floor : {false, true}) {
      if (floor && algorithm == 2) continue;
      for (double epsilon : kEpsilons) {
        std::vector<double> mean(40, 0);
        for (int s = 0; s < seeds; ++s) {
          SeededRng rng(2000 + static_cast<std::uint64_t>(s));
          const auto [raw, floored] =
              RunGeo(points, AlgorithmAt(algorithm, epsilon, points.size(), rng), box,
                     11 + static_cast<std::uint64_t>(s));
          const std::vector<double>& p = floor ? floored : raw;
          for (std::size_t i = 0; i < p.size() && i < mean.size(); ++i) mean[i] += p[i] / seeds;
        }
        char eps[16];
        std::snprintf(eps, sizeof eps, "%g", epsilon);
        print(std::string(kAlgorithms[algorithm]) + (floor ? ", floor" : ""), eps, mean);
      }
    }
  }
  // The baseline: a resample of the real points with replacement (no privacy).
  const std::vector<std::uint64_t> real = *d.ToValues(points);
  std::vector<double> mean(40, 0);
  for (int s = 0; s < seeds; ++s) {
    SeededRng rng(3000 + static_cast<std::uint64_t>(s));
    std::vector<std::uint64_t> resample;
    for (std::size_t i = 0; i < real.size(); ++i) resample.push_back(real[UniformBelow(rng, real.size())]);
    const auto p = EarthMover(d, real, resample);
    for (std::size_t i = 0; i < p.size(); ++i) mean[i] += p[i] / seeds;
  }
  print("resample (not private)", "-", mean);
}

// ---- (c) numeric columns: adaptive vs equal-width ----------------------------------------
struct Interval {
  double lo, hi, mass;  // [lo, hi), mass >= 0
};

struct NumericScore {
  double tvd = 0;    // 1-way TVD on the fine grid (synthetic mass outside [min, max] counts)
  double empty = 0;  // synthetic mass in grid cells without real records, or outside
  double bins = 0;
};

// The grid: G = min(2000, points) equal cells over [min, max + step), computed in lattice units
// u = (x − min)/step (values are read by rounding to the lattice, so no value lands in the
// wrong cell through floating-point error).
inline NumericScore Score(const std::vector<double>& values, double step,
                          const std::vector<Interval>& histogram) {
  const auto [lo_it, hi_it] = std::minmax_element(values.begin(), values.end());
  const double lo = *lo_it;
  const double points = std::round((*hi_it - lo) / step) + 1;  // lattice points in [min, max]
  const auto cells = static_cast<std::size_t>(std::min(2000.0, points));
  const double width = points / static_cast<double>(cells);  // lattice points per cell
  std::vector<double> p(cells, 0), q(cells, 0);
  for (double x : values) {
    const double k = std::round((x - lo) / step);
    p[std::min(cells - 1, static_cast<std::size_t>(k / width))] += 1.0 / values.size();
  }
  double total = 0, outside = 0;
  for (const Interval& b : histogram) total += b.mass;
  for (const Interval& b : histogram) {
    if (b.mass <= 0) continue;
    const double m = b.mass / total;
    const double b_lo = (b.lo - lo) / step, b_hi = (b.hi - lo) / step;  // lattice units
    const double a = std::max(b_lo, 0.0), z = std::min(b_hi, points);
    const double inside = z > a ? (z - a) / (b_hi - b_lo) : 0;
    outside += m * (1 - inside);
    if (z <= a) continue;
    for (auto c = static_cast<std::size_t>(a / width); c < cells; ++c) {
      const double c_lo = static_cast<double>(c) * width, c_hi = c_lo + width;
      if (c_lo >= z) break;
      q[c] += m * (std::min(z, c_hi) - std::max(a, c_lo)) / (b_hi - b_lo);
    }
  }
  NumericScore s;
  s.tvd = outside;
  s.empty = outside;
  for (std::size_t c = 0; c < cells; ++c) {
    s.tvd += std::fabs(p[c] - q[c]);
    if (p[c] == 0) s.empty += q[c];
  }
  s.tvd /= 2;
  s.bins = static_cast<double>(histogram.size());
  return s;
}

inline NumericScore EqualWidth(const NumericColumn& column, int bins, double epsilon,
                               std::uint64_t seed) {
  const double step = std::pow(10.0, -column.decimals);
  const auto [lo_it, hi_it] = std::minmax_element(column.values.begin(), column.values.end());
  const double lo = *lo_it, hi = *hi_it + step, width = (hi - lo) / bins;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(bins), 0);
  for (double x : column.values) {  // x's lattice point's cell (no floating-point strays)
    const double u = std::round((x - lo) / step) * step;
    ++counts[std::min<std::size_t>(static_cast<std::size_t>(bins) - 1,
                                   static_cast<std::size_t>(u / width))];
  }
  SeededRng rng(seed);
  const auto mechanism = GeometricMechanism::Create(epsilon, 1);
  std::vector<Interval> histogram;
  for (int b = 0; b < bins; ++b) {
    const std::int64_t noisy = mechanism->AddNoise(counts[static_cast<std::size_t>(b)], rng);
    histogram.push_back({lo + b * width, lo + (b + 1) * width,
                         static_cast<double>(std::max<std::int64_t>(0, noisy))});
  }
  return Score(column.values, step, histogram);
}

// NaN scores when refused; with_floor applies CountFloor to the counts.
inline NumericScore Adaptive(const NumericColumn& column, const HistogramOptions& o, bool bounded,
                             std::uint64_t seed, bool with_floor = false) {
  NumericHistogramOptions options;
  options.domain.decimals = column.decimals;
  if (bounded) {
    options.domain.lo = *std::min_element(column.values.begin(), column.values.end());
    options.domain.hi = *std::max_element(column.values.begin(), column.values.end());
  }
  options.histogram = o;
  SeededRng rng(seed);
  NullProgress progress;
  auto accountant = Unlimited();
  auto h = LearnNumericHistogram(column.values, options, accountant, column.name, "all", rng,
                                 progress);
  if (!h) return NumericScore{std::nan(""), std::nan(""), std::nan("")};
  const std::int64_t floor = with_floor ? CountFloor(h->bins.size(), o.counts_epsilon) : 0;
  std::vector<Interval> histogram;
  for (const NumericBin& b : h->bins) {
    histogram.push_back({b.first, b.right, static_cast<double>(FlooredCount(b.noisy_count, floor))});
  }
  return Score(column.values, std::pow(10.0, -column.decimals), histogram);
}

inline std::vector<NumericColumn> NumericColumns() {
  std::vector<NumericColumn> out;
  const std::pair<const char*, std::vector<const char*>> sources[] = {
      {"adult.csv", {"age", "fnlwgt", "education-num", "capital-gain", "capital-loss",
                     "hours-per-week"}},
      {"flchain.csv", {"age", "sample.yr", "kappa", "lambda", "creatinine", "futime"}},
      {"mplsstops.csv", {"lat", "long"}}};
  for (const auto& [file, names] : sources) {
    auto table = LoadShared(file);
    if (!table) continue;
    for (const char* name : names) {
      if (auto column = Numbers(*table, name)) {
        column->name = std::string(file).substr(0, std::string(file).find('.')) + "." + name;
        out.push_back(std::move(*column));
      }
    }
  }
  return out;
}

inline void NumericTables(int seeds) {
  const std::vector<NumericColumn> columns = NumericColumns();
  for (double epsilon : kEpsilons) {
    std::printf("\n#### Numeric columns at total ε = %g\n\n", epsilon);
    std::printf("| column | n | decimals | TVD EW-20 | TVD EW-32 | TVD adaptive | TVD adaptive, "
                "floor | TVD adaptive [min,max] | empty EW-20 | empty adaptive | empty adaptive, "
                "floor | bins adaptive |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const NumericColumn& column : columns) {
      NumericScore ew20, ew32, adaptive, floored, bounded;
      for (int s = 0; s < seeds; ++s) {
        const auto seed = 50 + static_cast<std::uint64_t>(s);
        auto add = [&](NumericScore& to, const NumericScore& x) {
          to.tvd += x.tvd / seeds;
          to.empty += x.empty / seeds;
          to.bins += x.bins / seeds;
        };
        add(ew20, EqualWidth(column, 20, epsilon, seed));
        add(ew32, EqualWidth(column, 32, epsilon, seed));
        add(adaptive, Adaptive(column, ImprovedAt(epsilon), false, seed));
        add(floored, Adaptive(column, ImprovedAt(epsilon), false, seed, true));
        add(bounded, Adaptive(column, ImprovedAt(epsilon), true, seed));
      }
      std::printf("| %s | %zu | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f "
                  "|\n",
                  column.name.c_str(), column.values.size(), column.decimals, ew20.tvd, ew32.tvd,
                  adaptive.tvd, floored.tvd, bounded.tvd, ew20.empty, adaptive.empty,
                  floored.empty, adaptive.bins);
    }
  }
}

// ---- (d), (e) threshold scale and discount functions at total ε = 1 --------------------
inline void SweepRow(const char* label, const HistogramOptions& o, int seeds,
                     const std::vector<NumericColumn>& columns,
                     const std::vector<GeoPoint>& points) {
  double tvd = 0, tvd_floor = 0, bins = 0, emd = 0, emd_floor = 0, recovered = 0, spurious = 0,
         spurious_floor = 0;
  int string_runs = 0;
  for (int s = 0; s < seeds; ++s) {
    const auto seed = 70 + static_cast<std::uint64_t>(s);
    const double per_column = 1.0 / (seeds * static_cast<double>(columns.size()));
    for (const NumericColumn& column : columns) {
      const NumericScore x = Adaptive(column, o, false, seed);
      tvd += x.tvd * per_column;
      bins += x.bins * per_column;
      tvd_floor += Adaptive(column, o, false, seed, true).tvd * per_column;
    }
    if (!points.empty()) {
      const auto [raw, floored] = RunGeo(points, o, kCityBox, seed);
      emd += raw.back() / seeds;
      emd_floor += floored.back() / seeds;
    }
    for (auto [file, name] : {std::pair{"mplsstops.csv", "neighborhood"},
                              std::pair{"adult.csv", "native-country"},
                              std::pair{"adult.csv", "occupation"}}) {
      auto table = LoadShared(file);
      if (!table) continue;
      const auto texts = Texts(*table, name);
      std::map<std::string, double> real;
      for (const auto& t : texts) real[t] += 1;
      const auto [score, with_floor] = RunStrings(texts, o, seed, real);
      recovered += score.all;
      spurious += score.spurious;
      spurious_floor += with_floor.spurious;
      ++string_runs;
    }
  }
  const double per = std::max(1, string_runs);
  std::printf("| %s | %.3f | %.3f | %.0f | %.4f | %.4f | %.3f | %.3f | %.3f |\n", label, tvd,
              tvd_floor, bins, emd, emd_floor, recovered / per, spurious / per,
              spurious_floor / per);
}

inline void SweepTables(int seeds) {
  const std::vector<NumericColumn> columns = NumericColumns();
  const std::vector<GeoPoint> points = MplsPoints();
  const char* header =
      " | mean TVD (%zu numeric) | mean TVD, floor | mean bins | geo EMD (city box) | geo EMD, "
      "floor | strings recovered | strings spurious | spurious, floor |\n"
      "|---|---|---|---|---|---|---|---|---|\n";
  std::printf("\n#### Threshold scale c (b = c·ln k/ε_adaptive), total ε = 1, proportional\n\n"
              "| c");
  std::printf(header, columns.size());
  for (double c : {0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 8.0}) {
    char label[16];
    std::snprintf(label, sizeof label, "%g", c);
    SweepRow(label, ImprovedAt(1.0, c), seeds, columns, points);
  }
  std::printf("\n#### Discount functions, total ε = 1, c = 1\n\n| discount");
  std::printf(header, columns.size());
  for (DiscountFunction f : {DiscountFunction::kSkipFirst, DiscountFunction::kProportional,
                             DiscountFunction::kUniform}) {
    SweepRow(DiscountFunctionName(f), ImprovedAt(1.0, 1.0, f), seeds, columns, points);
  }
}

inline int RunTables(int seeds) {
  const auto start = std::chrono::steady_clock::now();
  std::printf("Accuracy tables (%d seeds each; seeded runs: reproducible, NOT private)\n", seeds);
  StringTables(seeds);
  GeoTable(seeds, GeoBox{}, "quadtree of the globe");
  GeoTable(seeds, kCityBox, "quadtree of a public box lat 44..46, lon -94..-92");
  NumericTables(seeds);
  SweepTables(seeds);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::printf("\n(%.1f s)\n", took.count());
  return 0;
}

}  // namespace deniable::bench
