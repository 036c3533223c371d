// SPDX-License-Identifier: Apache-2.0
// Column-level private histograms: one call turns a column (numbers, date-times, coordinate
// pairs, strings) into ordered bins with noisy counts, for domains, bins and synthesis.
//
// Privacy guarantee (neighbouring: add/remove one record; each record holds one value of the
// column; missing values are the caller's business: filter them, count them separately)
//   kImproved (default)  the improved adaptive histogram (Fig. 2, Thm. 3): spends
//                        2·adaptive.epsilon for the bins, then counts_epsilon for the bins'
//                        noisy counts (the second pass, §2.3): 2ε + ε2 in total; or, with
//                        counts_rho > 0, a counts_rho-zCDP Gaussian second pass.
//   kBasic               Fig. 1 (Cor. 2): adaptive.epsilon × adaptive.max_depth, then
//                        counts_epsilon.
//   kDirect              direct synthesis (§4): direct.epsilon; the bins are the cells that
//                        received records and their counts the allocation (covers_domain false).
// Everything released (bins, counts) is a function of these mechanisms' outputs and of public
// parameters (the options). Entries go to the accountant on `partition` under `label` (before
// any noise is drawn). Proofs: adaptive_histogram.md, direct_synthesis.md, decompositions.md.
//
// Speed (bench/histogram_bench.cpp, one core, 1.5M values): typical numeric, date-time and
// coordinate columns 0.1-0.45 s of CPU, all-distinct reals 0.8 s, strings 0.45-1.1 s
// (docs/adaptive-histograms.md).
//
// Example:
//   NumericHistogramOptions options;
//   options.domain = {.lattice = LatticeKind::kDecimal, .decimals = 0};  // integers, no bounds
//   options.histogram.adaptive.epsilon = 0.1;    // spends 0.2
//   options.histogram.counts_epsilon = 0.3;
//   auto h = LearnNumericHistogram(ages, options, accountant, "age", "all", rng, progress);
//   for (const NumericBin& bin : h->bins) ...;   // bin.first .. bin.last, bin.noisy_count
//   std::size_t code = h->BinOf(37.0);
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/histogram/adaptive_histogram.h"
#include "engine/histogram/calendar_decomposition.h"
#include "engine/histogram/direct_synthesis.h"
#include "engine/histogram/geo_decomposition.h"
#include "engine/histogram/numeric_decomposition.h"
#include "engine/histogram/string_trie.h"

namespace deniable {

enum class HistogramAlgorithm { kImproved, kBasic, kDirect };
const char* HistogramAlgorithmName(HistogramAlgorithm algorithm);  // "improved", ...

struct HistogramOptions {
  HistogramAlgorithm algorithm = HistogramAlgorithm::kImproved;
  AdaptiveOptions adaptive;      // kImproved spends 2·epsilon; kBasic epsilon·max_depth
  double counts_epsilon = 0.5;   // the second pass (kImproved, kBasic)
  // > 0: the second pass adds discrete Gaussian noise of σ² = 1/(2·counts_rho) instead
  // (disjoint leaves, ℓ2 sensitivity 1: counts_rho-zCDP, CKS 2020 Thm. 4), recorded as a zCDP
  // entry (the accountant's zCDP δ must be set); counts_epsilon is then not used. Gaussian
  // tails are far lighter than Laplace ones at the same ρ (σ = 1/ε for the ρ = ε²/2 an ε-DP
  // pass costs in a zCDP block), so the rules that tell a real leaf from noise
  // (model/numeric_bins.h) need half the records.
  double counts_rho = 0;
  DirectSynthesisOptions direct; // kDirect
  std::int64_t direct_total = -1;  // kDirect: records to allocate (a public or paid-for count)
};

// The second pass's noise on one count, as the rules that read the counts see it: discrete
// Laplace of scale 1/counts_epsilon or, with counts_rho > 0, discrete Gaussian of standard
// deviation σ = √(1/(2·counts_rho)).
struct CountNoise {
  bool gaussian = false;
  double scale = 1;  // the Laplace's scale or the Gaussian's σ
};
CountNoise CountNoiseOf(const HistogramOptions& options);
// Turns `options`' second pass Gaussian at the ρ its ε-DP Laplace pass would cost once folded
// into a zCDP block: counts_rho = counts_epsilon²/2 (σ = 1/counts_epsilon).
void UseGaussianCounts(HistogramOptions& options);
// One more cell of the same second pass, disjoint from the leaves (a column's missing count:
// parallel composition, no extra spend): `count` with the pass's noise.
Result<std::int64_t> NoisyExtraCell(const HistogramOptions& options, std::uint64_t count,
                                    Rng& rng);

// A discrete Gaussian histogram over a public partition of the records (each record in at
// most one cell, so the count vector has ℓ2 sensitivity 1): counts[i] + N_Z(0, σ²), σ² =
// 1/(2ρ) (CKS 2020 Thm. 4: ρ-zCDP), recorded as one zCDP entry under `label` before any noise
// is drawn (the accountant's zCDP δ must be set). The numeric domains measure the magnitude
// groups of a column with it (model/numeric_bins.h rule 1). Returns the noisy counts.
Result<std::vector<std::int64_t>> NoisyGaussianHistogram(std::span<const std::uint64_t> counts,
                                                         double rho,
                                                         PrivacyAccountant& accountant,
                                                         const std::string& label,
                                                         const std::string& partition, Rng& rng);

// What every column histogram reports besides its bins.
struct HistogramSummary {
  double epsilon_spent = 0;     // ε of this call's ε-DP entries (a Gaussian second pass is ρ)
  std::size_t nodes = 0;        // adaptive: nodes of the tree; direct: expanded nodes
  bool truncated = false;       // max_nodes stopped the refinement
  bool covers_domain = true;    // false for kDirect: bins are only the cells with records
  std::int64_t threshold = 0;   // ⌈b⌉ (adaptive)
  std::int64_t discount = 0;    // t (improved)
};

// Post-processing for synthesis (free: it reads only released counts). Empty regions get noisy
// counts too, and with many bins (a 180-way trie, a quadtree of the globe) their positive noise
// adds up to many spurious records. A floor removes them: counts below it become 0.
// CountFloor(bins, counts_epsilon) = ⌈s·ln(bins)⌉ (s = 1/ε rounded up, the count noise scale):
// each empty bin then keeps a positive count with probability < e^{-⌈s ln bins⌉/s} <= 1/bins,
// so in expectation fewer than one empty bin survives; true bins with fewer records than the
// floor are lost too. 0 for bins <= 1.
std::int64_t CountFloor(std::size_t bins, double counts_epsilon);
// max(0, count), and 0 below `floor`.
inline std::int64_t FlooredCount(std::int64_t noisy_count, std::int64_t floor) {
  return noisy_count < std::max<std::int64_t>(floor, 1) ? 0 : noisy_count;
}

// ---- Numbers (Integer, Float) ------------------------------------------------------------
struct NumericHistogramOptions {
  NumericDomainSpec domain;     // lattice, public bounds or coarse range
  HistogramOptions histogram;
};
struct NumericBin {
  double first = 0;   // first lattice value (continuous: left end)
  double last = 0;    // last lattice value (continuous: left end of the last cell)
  double right = 0;   // exclusive right end, last + step: the bin is [first, right)
  double points = 0;  // lattice points (continuous: cells), exact below 2^53
  std::int64_t noisy_count = 0;  // may be negative (unbiased); clamp at 0 to synthesize
  std::uint32_t depth = 0;
};
struct NumericHistogram {
  NumericDecomposition decomposition;            // maps values exactly as the bins were learnt
  std::vector<NumericDecomposition::Node> leaves;  // leaves[i] is bins[i]
  std::vector<NumericBin> bins;                  // value order
  HistogramSummary summary;
  double step() const { return decomposition.step(); }
  std::size_t BinOf(double value) const;        // covers_domain only; value finite (clamped)
  double Draw(std::size_t bin, Rng& rng) const; // a uniform lattice value (continuous: real)
};
Result<NumericHistogram> LearnNumericHistogram(std::span<const double> values,
                                               const NumericHistogramOptions& options,
                                               PrivacyAccountant& accountant,
                                               const std::string& label,
                                               const std::string& partition, Rng& rng,
                                               Progress& progress);

// ---- Date-times (seconds since 1970-01-01, engine/schema/datetime.h) ---------------------
enum class DateTimeSplit { kCalendar, kBinary };
struct DateTimeHistogramOptions {
  DateTimeSplit split = DateTimeSplit::kCalendar;
  std::int64_t resolution_seconds = 1;  // 1, 60, 3600 or 86400 (dates)
  std::int64_t first_year = 1900;       // public range [first_year, end_year) (coarse default)
  std::int64_t end_year = 2100;
  HistogramOptions histogram;
};
struct DateTimeBin {
  std::int64_t first = 0;   // first grid instant (seconds)
  std::int64_t last = 0;    // last grid instant
  std::int64_t points = 0;  // grid instants
  std::int64_t noisy_count = 0;
  std::uint32_t depth = 0;
  std::string label;        // calendar: "2017-03-05"; binary: first..last
};
struct DateTimeHistogram {
  std::int64_t resolution_seconds = 1;
  std::int64_t domain_first = 0, domain_last = 0;  // the public range's first/last instant
  std::vector<DateTimeBin> bins;
  HistogramSummary summary;
  std::size_t BinOf(double seconds) const;           // floored onto the grid, clamped
  std::int64_t Draw(std::size_t bin, Rng& rng) const;  // a uniform grid instant of the bin
};
Result<DateTimeHistogram> LearnDateTimeHistogram(std::span<const double> seconds,
                                                 const DateTimeHistogramOptions& options,
                                                 PrivacyAccountant& accountant,
                                                 const std::string& label,
                                                 const std::string& partition, Rng& rng,
                                                 Progress& progress);

// ---- Latitude/longitude pairs -------------------------------------------------------------
struct GeoHistogramOptions {
  double resolution_degrees = 1e-5;  // or 10^-decimals of the columns
  GeoBox box;                        // public bounds (default: the whole globe)
  HistogramOptions histogram;
};
struct GeoCell {
  GeoPoint first;  // lattice corner with the smallest lat and lon
  GeoPoint last;   // lattice corner with the largest
  double points = 0;
  std::int64_t noisy_count = 0;
  std::uint32_t depth = 0;
};
struct GeoHistogram {
  GeoDecomposition decomposition;
  std::vector<GeoDecomposition::Node> leaves;
  std::vector<GeoCell> cells;  // Morton order
  HistogramSummary summary;
  std::size_t BinOf(const GeoPoint& point) const;
  GeoPoint Draw(std::size_t cell, Rng& rng) const;  // a uniform lattice point of the cell
};
Result<GeoHistogram> LearnGeoHistogram(std::span<const GeoPoint> points,
                                       const GeoHistogramOptions& options,
                                       PrivacyAccountant& accountant, const std::string& label,
                                       const std::string& partition, Rng& rng,
                                       Progress& progress);

// ---- Strings (free text) ------------------------------------------------------------------
struct StringHistogramOptions {
  std::size_t max_length_bytes = 64;  // public; longer strings are cut at a character boundary
  HistogramOptions histogram;
};
struct StringBin {
  std::string text;       // the string (verbatim) or the prefix of a region
  bool verbatim = false;  // true: exactly `text`; false: strings starting with `text`
  std::int64_t noisy_count = 0;
  std::uint32_t depth = 0;
};
// Frequent strings survive verbatim (their own leaf: bins with verbatim = true); rare ones
// vanish into prefix regions ("strings starting with ...") whose noisy counts say how much mass
// they hold but whose members are never released.
struct StringHistogram {
  StringTrie trie;
  std::vector<StringTrie::Node> leaves;
  std::vector<StringBin> bins;  // byte order
  HistogramSummary summary;
  std::size_t BinOf(const std::string& text) const;  // after trie.Normalize
  // The verbatim bins whose noisy count is at least max(1, floor), in byte order: the strings
  // a synthesizer may emit as they are. A good floor is CountFloor(bins.size(), counts_epsilon)
  // (docs/adaptive-histograms.md (a)); post-processing.
  std::vector<StringBin> VerbatimStrings(std::int64_t floor) const;
};
Result<StringHistogram> LearnStringHistogram(std::span<const std::string> texts,
                                             const StringHistogramOptions& options,
                                             PrivacyAccountant& accountant,
                                             const std::string& label,
                                             const std::string& partition, Rng& rng,
                                             Progress& progress);

}  // namespace deniable
