// SPDX-License-Identifier: Apache-2.0
#include "engine/histogram/column_histograms.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "engine/dp/discrete_gaussian_mechanism.h"
#include "engine/dp/gaussian_accounting.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/schema/datetime.h"

namespace deniable {
namespace {

// The leaves of one column and their counts, whatever the algorithm.
template <typename Node>
struct Learnt {
  std::vector<Node> leaves;
  std::vector<std::int64_t> counts;
  std::vector<std::uint32_t> depths;
  HistogramSummary summary;
};

template <Decomposition D>
Result<Learnt<typename D::Node>> LearnDirect(const D& d, std::span<const typename D::Value> values,
                                             const HistogramOptions& options,
                                             PrivacyAccountant& accountant,
                                             const std::string& label,
                                             const std::string& partition, Rng& rng,
                                             Progress& progress) {
  if (options.direct_total < 0) {
    return InvalidArgument("direct synthesis needs direct_total, the number of records to "
                           "allocate (a public or separately paid-for count)");
  }
  auto synthesis = SynthesizeDirect(d, values, options.direct_total, options.direct, accountant,
                                    label + ": direct synthesis", partition, rng, progress);
  if (!synthesis) return synthesis.error();
  Learnt<typename D::Node> out;
  for (auto& cell : synthesis->cells) {
    out.leaves.push_back(std::move(cell.node));
    out.counts.push_back(cell.count);
    out.depths.push_back(cell.depth);
  }
  out.summary.epsilon_spent = synthesis->epsilon_spent;
  out.summary.nodes = synthesis->expanded;
  out.summary.covers_domain = false;
  return out;
}

// Sorts once, runs the adaptive stage, then the second pass on the same sorted values.
template <Decomposition D>
Result<Learnt<typename D::Node>> Learn(const D& d, std::span<const typename D::Value> values,
                                       const HistogramOptions& options,
                                       PrivacyAccountant& accountant, const std::string& label,
                                       const std::string& partition, Rng& rng,
                                       Progress& progress) {
  if (options.algorithm == HistogramAlgorithm::kDirect) {
    return LearnDirect(d, values, options, accountant, label, partition, rng, progress);
  }
  const bool improved = options.algorithm == HistogramAlgorithm::kImproved;
  // The second pass's mechanism, validated before anything is spent.
  const bool gaussian = options.counts_rho > 0;
  std::optional<GeometricMechanism> laplace_counts;
  std::optional<DiscreteGaussianMechanism> gaussian_counts;
  if (gaussian) {
    auto mechanism = DiscreteGaussianMechanism::Create(options.counts_rho, 1);
    if (!mechanism) return mechanism.error().WithContext("counts_rho");
    gaussian_counts = std::move(mechanism.value());
  } else {
    auto mechanism = GeometricMechanism::Create(options.counts_epsilon, 1);
    if (!mechanism) return mechanism.error().WithContext("counts_epsilon");
    laplace_counts = std::move(mechanism.value());
  }
  auto parameters = improved ? ImprovedParameters(options.adaptive, d.ThresholdBranching())
                             : BasicParameters(options.adaptive, d.ThresholdBranching());
  if (!parameters) return parameters.error();
  auto column = internal::SortColumn(d, values);
  if (!column) return column.error();
  // Both spends are recorded before any noise is drawn (a refused one draws nothing).
  double spent = 0;
  const std::string stage_label = label + ": adaptive partition";
  Status spend = improved ? internal::SpendImproved(accountant, stage_label, partition,
                                                    options.adaptive, *parameters, spent)
                          : internal::SpendBasic(accountant, stage_label, partition,
                                                 options.adaptive, spent);
  if (!spend) return spend.error();
  if (Status s = gaussian ? internal::SpendGaussianCounts(accountant, label + ": leaf counts",
                                                          partition, options.counts_rho)
                          : internal::SpendCounts(accountant, label + ": leaf counts", partition,
                                                  options.counts_epsilon);
      !s) {
    return s.error();
  }
  SubProgress refine(progress, 0.0, 0.9);
  auto tree = internal::RunAdaptive(d, *column, improved, options.adaptive, *parameters, rng,
                                    refine);
  if (!tree) return tree.error();
  const std::span<const typename D::Node> leaves(tree->leaves);
  auto counts = gaussian ? internal::NoisyCountsOf(d, leaves, *column, *gaussian_counts, rng)
                         : internal::NoisyCountsOf(d, leaves, *column, *laplace_counts, rng);
  if (!counts) return counts.error();
  progress.Report(1.0, "Adaptive histogram done");
  Learnt<typename D::Node> out;
  out.leaves = std::move(tree->leaves);
  out.counts = std::move(*counts);
  out.depths = std::move(tree->depths);
  // A Gaussian second pass is a ρ entry: not in this ε figure (the ledger has it).
  out.summary.epsilon_spent = spent + (gaussian ? 0.0 : options.counts_epsilon);
  out.summary.nodes = tree->nodes;
  out.summary.truncated = tree->truncated;
  out.summary.threshold = tree->threshold;
  out.summary.discount = tree->discount;
  return out;
}

// The last index i with key(items[i]) <= key (items sorted by key; 0 if none).
template <typename T, typename K, typename KeyOf>
std::size_t LastAtMost(const std::vector<T>& items, const K& key, KeyOf key_of) {
  const auto it = std::upper_bound(items.begin(), items.end(), key,
                                   [&](const K& k, const T& item) { return k < key_of(item); });
  return it == items.begin() ? 0 : static_cast<std::size_t>(it - items.begin()) - 1;
}

std::string FormatInstant(std::int64_t seconds) {
  std::string out;
  FormatDateTime(static_cast<double>(seconds), "%Y-%m-%d %H:%M:%S", out);
  return out;
}

}  // namespace

const char* HistogramAlgorithmName(HistogramAlgorithm algorithm) {
  switch (algorithm) {
    case HistogramAlgorithm::kImproved: return "improved";
    case HistogramAlgorithm::kBasic: return "basic";
    case HistogramAlgorithm::kDirect: return "direct";
  }
  return "?";
}

CountNoise CountNoiseOf(const HistogramOptions& options) {
  if (options.counts_rho > 0) return CountNoise{true, std::sqrt(1 / (2 * options.counts_rho))};
  return CountNoise{false, 1.0 / options.counts_epsilon};
}

void UseGaussianCounts(HistogramOptions& options) {
  options.counts_rho = ZcdpOfPureDp(options.counts_epsilon);
}

Result<std::int64_t> NoisyExtraCell(const HistogramOptions& options, std::uint64_t count,
                                    Rng& rng) {
  const auto value = static_cast<std::int64_t>(count);
  if (options.counts_rho > 0) {
    auto mechanism = DiscreteGaussianMechanism::Create(options.counts_rho, 1);
    if (!mechanism) return mechanism.error();
    return mechanism->AddNoise(value, rng);
  }
  auto mechanism = GeometricMechanism::Create(options.counts_epsilon, 1);
  if (!mechanism) return mechanism.error();
  return mechanism->AddNoise(value, rng);
}

Result<std::vector<std::int64_t>> NoisyGaussianHistogram(std::span<const std::uint64_t> counts,
                                                         double rho,
                                                         PrivacyAccountant& accountant,
                                                         const std::string& label,
                                                         const std::string& partition, Rng& rng) {
  auto mechanism = DiscreteGaussianMechanism::Create(rho, 1);
  if (!mechanism) return mechanism.error();
  LedgerEntry entry;
  entry.label = label;
  entry.mechanism = "discrete Gaussian histogram over a public partition";
  entry.partition = partition;
  entry.reference = "CKS 2020 Thm. 4 (ℓ2 sensitivity 1: each record in one cell)";
  entry.rho_each = rho;
  entry.sensitivity = 1;
  if (Status s = accountant.Spend(entry); !s) return s.error();
  std::vector<std::int64_t> noisy;
  noisy.reserve(counts.size());
  for (const std::uint64_t c : counts) {
    noisy.push_back(mechanism->AddNoise(static_cast<std::int64_t>(c), rng));
  }
  return noisy;
}

std::int64_t CountFloor(std::size_t bins, double counts_epsilon) {
  auto mechanism = GeometricMechanism::Create(counts_epsilon, 1);
  if (!mechanism || bins <= 1) return 0;
  return static_cast<std::int64_t>(
      std::ceil(mechanism->scale() * std::log(static_cast<double>(bins))));
}

// ---- Numbers ----------------------------------------------------------------------------

std::size_t NumericHistogram::BinOf(double value) const {
  const Int128 m = decomposition.ToValue(value);
  return LastAtMost(leaves, m, [](const NumericDecomposition::Node& n) { return n.lo; });
}

double NumericHistogram::Draw(std::size_t bin, Rng& rng) const {
  return decomposition.DrawReal(leaves[bin], rng);
}

Result<NumericHistogram> LearnNumericHistogram(std::span<const double> values,
                                               const NumericHistogramOptions& options,
                                               PrivacyAccountant& accountant,
                                               const std::string& label,
                                               const std::string& partition, Rng& rng,
                                               Progress& progress) {
  auto decomposition = NumericDecomposition::Create(options.domain);
  if (!decomposition) return decomposition.error().WithContext(label);
  auto mapped = decomposition->ToValues(values);
  if (!mapped) return mapped.error().WithContext(label);
  auto learnt = Learn(*decomposition, std::span<const Int128>(*mapped), options.histogram,
                      accountant, label, partition, rng, progress);
  if (!learnt) return learnt.error();
  NumericHistogram h{std::move(*decomposition), std::move(learnt->leaves), {}, learnt->summary};
  for (std::size_t i = 0; i < h.leaves.size(); ++i) {
    const NumericDecomposition::Node& node = h.leaves[i];
    NumericBin bin;
    bin.first = h.decomposition.FromValue(node.lo);
    bin.last = h.decomposition.FromValue(node.lo + node.width - 1);
    bin.right = h.decomposition.FromValue(node.lo + node.width);
    bin.points = static_cast<double>(node.width);
    bin.noisy_count = learnt->counts[i];
    bin.depth = learnt->depths[i];
    h.bins.push_back(bin);
  }
  return h;
}

// ---- Date-times -------------------------------------------------------------------------

std::size_t DateTimeHistogram::BinOf(double seconds) const {
  std::int64_t t = domain_first;
  if (seconds >= static_cast<double>(domain_last)) {
    t = domain_last;
  } else if (seconds > static_cast<double>(domain_first)) {
    t = static_cast<std::int64_t>(std::floor(seconds));
  }
  return LastAtMost(bins, t, [](const DateTimeBin& b) { return b.first; });
}

std::int64_t DateTimeHistogram::Draw(std::size_t bin, Rng& rng) const {
  const DateTimeBin& b = bins[bin];
  return b.first +
         resolution_seconds * static_cast<std::int64_t>(
                                  UniformBelow(rng, static_cast<std::uint64_t>(b.points)));
}

Result<DateTimeHistogram> LearnDateTimeHistogram(std::span<const double> seconds,
                                                 const DateTimeHistogramOptions& options,
                                                 PrivacyAccountant& accountant,
                                                 const std::string& label,
                                                 const std::string& partition, Rng& rng,
                                                 Progress& progress) {
  auto calendar =
      CalendarDecomposition::Create(options.resolution_seconds, options.first_year,
                                    options.end_year);
  if (!calendar) return calendar.error().WithContext(label);
  DateTimeHistogram h;
  h.resolution_seconds = options.resolution_seconds;
  h.domain_first = calendar->Root().start;
  h.domain_last = calendar->Root().end - options.resolution_seconds;
  if (options.split == DateTimeSplit::kCalendar) {
    auto mapped = calendar->ToValues(seconds);
    if (!mapped) return mapped.error().WithContext(label);
    auto learnt = Learn(*calendar, std::span<const std::int64_t>(*mapped), options.histogram,
                        accountant, label, partition, rng, progress);
    if (!learnt) return learnt.error();
    h.summary = learnt->summary;
    for (std::size_t i = 0; i < learnt->leaves.size(); ++i) {
      const CalendarDecomposition::Node& node = learnt->leaves[i];
      h.bins.push_back({node.start, node.end - h.resolution_seconds,
                        (node.end - node.start) / h.resolution_seconds, learnt->counts[i],
                        learnt->depths[i], calendar->Label(node)});
    }
    return h;
  }
  // Binary splits over time: the numeric decomposition on the resolution grid.
  NumericDomainSpec spec;
  spec.lattice = LatticeKind::kFloorGrid;
  spec.grid_step = options.resolution_seconds;
  spec.lo = static_cast<double>(h.domain_first);
  spec.hi = static_cast<double>(h.domain_last);
  auto numeric = NumericDecomposition::Create(spec);
  if (!numeric) return numeric.error().WithContext(label);
  auto mapped = numeric->ToValues(seconds);
  if (!mapped) return mapped.error().WithContext(label);
  auto learnt = Learn(*numeric, std::span<const Int128>(*mapped), options.histogram, accountant,
                      label, partition, rng, progress);
  if (!learnt) return learnt.error();
  h.summary = learnt->summary;
  for (std::size_t i = 0; i < learnt->leaves.size(); ++i) {
    const NumericDecomposition::Node& node = learnt->leaves[i];
    const auto first = static_cast<std::int64_t>(node.lo) * h.resolution_seconds;
    const auto points = static_cast<std::int64_t>(node.width);
    const std::int64_t last = first + (points - 1) * h.resolution_seconds;
    h.bins.push_back({first, last, points, learnt->counts[i], learnt->depths[i],
                      FormatInstant(first) + " .. " + FormatInstant(last)});
  }
  return h;
}

// ---- Latitude/longitude -----------------------------------------------------------------

std::size_t GeoHistogram::BinOf(const GeoPoint& point) const {
  return LastAtMost(leaves, decomposition.ToValue(point),
                    [](const GeoDecomposition::Node& n) { return n.key; });
}

GeoPoint GeoHistogram::Draw(std::size_t cell, Rng& rng) const {
  return decomposition.FromValue(decomposition.Draw(leaves[cell], rng));
}

Result<GeoHistogram> LearnGeoHistogram(std::span<const GeoPoint> points,
                                       const GeoHistogramOptions& options,
                                       PrivacyAccountant& accountant, const std::string& label,
                                       const std::string& partition, Rng& rng,
                                       Progress& progress) {
  auto decomposition = GeoDecomposition::Create(options.resolution_degrees, options.box);
  if (!decomposition) return decomposition.error().WithContext(label);
  auto mapped = decomposition->ToValues(points);
  if (!mapped) return mapped.error().WithContext(label);
  auto learnt = Learn(*decomposition, std::span<const std::uint64_t>(*mapped), options.histogram,
                      accountant, label, partition, rng, progress);
  if (!learnt) return learnt.error();
  GeoHistogram h{std::move(*decomposition), std::move(learnt->leaves), {}, learnt->summary};
  for (std::size_t i = 0; i < h.leaves.size(); ++i) {
    const GeoDecomposition::Node& node = h.leaves[i];
    h.cells.push_back({h.decomposition.First(node), h.decomposition.Last(node),
                       h.decomposition.Points(node), learnt->counts[i], learnt->depths[i]});
  }
  return h;
}

// ---- Strings ----------------------------------------------------------------------------

std::size_t StringHistogram::BinOf(const std::string& text) const {
  // A leaf's prefix is <= every member of its region and > every member of earlier leaves
  // (decompositions.md §4), so the leaf of s is the last one whose prefix is <= s.
  return LastAtMost(leaves, trie.Normalize(text),
                    [](const StringTrie::Node& n) -> const std::string& { return n.prefix; });
}

std::vector<StringBin> StringHistogram::VerbatimStrings(std::int64_t floor) const {
  std::vector<StringBin> out;
  for (const StringBin& bin : bins) {
    if (bin.verbatim && FlooredCount(bin.noisy_count, floor) > 0) out.push_back(bin);
  }
  return out;
}

Result<StringHistogram> LearnStringHistogram(std::span<const std::string> texts,
                                             const StringHistogramOptions& options,
                                             PrivacyAccountant& accountant,
                                             const std::string& label,
                                             const std::string& partition, Rng& rng,
                                             Progress& progress) {
  auto trie = StringTrie::Create(options.max_length_bytes);
  if (!trie) return trie.error().WithContext(label);
  const std::vector<std::string> normalized = trie->NormalizeAll(texts);
  auto learnt = Learn(*trie, std::span<const std::string>(normalized), options.histogram,
                      accountant, label, partition, rng, progress);
  if (!learnt) return learnt.error();
  StringHistogram h{std::move(*trie), std::move(learnt->leaves), {}, learnt->summary};
  for (std::size_t i = 0; i < h.leaves.size(); ++i) {
    const StringTrie::Node& node = h.leaves[i];
    // A leaf is one string when it is terminal or at the maximum length (then complete).
    const bool verbatim = node.terminal || h.trie.Branching(node) == 0;
    h.bins.push_back({node.prefix, verbatim, learnt->counts[i], learnt->depths[i]});
  }
  return h;
}

}  // namespace deniable
