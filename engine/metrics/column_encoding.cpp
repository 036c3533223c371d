// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/column_encoding.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "engine/schema/typed_values.h"

namespace deniable::internal {
namespace {

constexpr std::uint32_t kUnassigned = 0xFFFFFFFFu;
constexpr const char* kMissingLabel = "(missing)";

// Per dictionary entry of the real and the synthetic column: its code (kUnassigned until set).
struct CodeMaps {
  std::vector<std::uint32_t> real;
  std::vector<std::uint32_t> synthetic;
};

// Dictionary entries of `column` for which `take[i]`, ordered by count (descending), ties by
// first appearance (the dictionary's order).
std::vector<std::uint32_t> ByCountDescending(const RawColumn& column,
                                             const std::vector<bool>& take) {
  std::vector<std::uint32_t> order;
  for (std::uint32_t i = 0; i < column.distinct(); ++i) {
    if (take[i]) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&column](std::uint32_t a, std::uint32_t b) {
    return column.counts[a] > column.counts[b];
  });
  return order;
}

// Gives the entries selected by real_take / synthetic_take one code per distinct exact text,
// appended to `labels`: real texts by real frequency, then synthetic-only texts by synthetic
// frequency.
void AssignTextCodes(const RawColumn& real, const std::vector<bool>& real_take,
                     const RawColumn& synthetic, const std::vector<bool>& synthetic_take,
                     CodeMaps& maps, std::vector<std::string>& labels) {
  std::unordered_map<std::string_view, std::uint32_t> code_of_text;
  for (std::uint32_t entry : ByCountDescending(real, real_take)) {
    const auto code = static_cast<std::uint32_t>(labels.size());
    labels.push_back(real.dictionary[entry]);
    code_of_text.emplace(real.dictionary[entry], code);
    maps.real[entry] = code;
  }
  for (std::uint32_t entry = 0; entry < synthetic.distinct(); ++entry) {
    if (!synthetic_take[entry]) continue;
    auto found = code_of_text.find(synthetic.dictionary[entry]);
    if (found != code_of_text.end()) maps.synthetic[entry] = found->second;
  }
  // A synthetic dictionary holds each text once, so the remaining entries are distinct texts.
  std::vector<bool> unseen(synthetic.distinct(), false);
  for (std::uint32_t entry = 0; entry < synthetic.distinct(); ++entry) {
    unseen[entry] = synthetic_take[entry] && maps.synthetic[entry] == kUnassigned;
  }
  for (std::uint32_t entry : ByCountDescending(synthetic, unseen)) {
    maps.synthetic[entry] = static_cast<std::uint32_t>(labels.size());
    labels.push_back(synthetic.dictionary[entry]);
  }
}

std::vector<bool> IsNaN(const std::vector<double>& values) {
  std::vector<bool> result(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) result[i] = std::isnan(values[i]);
  return result;
}

std::string FormatEdge(double value, const ColumnSchema& schema) {
  std::string text;
  if (schema.type == DataType::kDateTime) {
    FormatNumericCell(value, schema, text);
    return text;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

// Numeric column with few distinct values: one code per number (real and synthetic numbers
// together, ascending), labelled by the real text of that number when there is one.
void AssignNumberCodes(const RawColumn& real, const std::vector<double>& real_values,
                       const RawColumn& synthetic, const std::vector<double>& synthetic_values,
                       CodeMaps& maps, std::vector<std::string>& labels) {
  std::vector<double> numbers;
  for (double v : real_values) {
    if (!std::isnan(v)) numbers.push_back(v);
  }
  for (double v : synthetic_values) {
    if (!std::isnan(v)) numbers.push_back(v);
  }
  std::sort(numbers.begin(), numbers.end());
  numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
  const std::size_t first_code = labels.size();
  labels.resize(first_code + numbers.size());
  auto code_of = [&](double v) {
    const auto at = std::lower_bound(numbers.begin(), numbers.end(), v) - numbers.begin();
    return static_cast<std::uint32_t>(first_code + static_cast<std::size_t>(at));
  };
  for (std::uint32_t entry = 0; entry < real.distinct(); ++entry) {
    if (std::isnan(real_values[entry])) continue;
    maps.real[entry] = code_of(real_values[entry]);
    if (labels[maps.real[entry]].empty()) labels[maps.real[entry]] = real.dictionary[entry];
  }
  for (std::uint32_t entry = 0; entry < synthetic.distinct(); ++entry) {
    if (std::isnan(synthetic_values[entry])) continue;
    maps.synthetic[entry] = code_of(synthetic_values[entry]);
    if (labels[maps.synthetic[entry]].empty()) {
      labels[maps.synthetic[entry]] = synthetic.dictionary[entry];
    }
  }
}

// Numeric column with many distinct values: equal-width bins over the real [min, max].
void AssignBinCodes(const std::vector<double>& real_numbers, const std::vector<double>& real_values,
                    const std::vector<double>& synthetic_values, const ColumnSchema& schema,
                    int bins, CodeMaps& maps, std::vector<std::string>& labels) {
  // Range over finite values; infinities (if the parser yields any) fall into the edge bins.
  double lo = INFINITY;
  double hi = -INFINITY;
  for (double v : real_numbers) {
    if (std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (!(lo <= hi)) lo = hi = 0;  // no finite value at all
  const std::vector<double> edges = EqualWidthEdges(lo, hi, bins);
  for (int bin = 0; bin < bins; ++bin) {
    labels.push_back("[" + FormatEdge(edges[bin], schema) + ", " +
                     FormatEdge(edges[bin + 1], schema) + (bin + 1 == bins ? "]" : ")"));
  }
  for (std::size_t entry = 0; entry < real_values.size(); ++entry) {
    if (!std::isnan(real_values[entry])) {
      maps.real[entry] = static_cast<std::uint32_t>(BinIndex(real_values[entry], edges));
    }
  }
  for (std::size_t entry = 0; entry < synthetic_values.size(); ++entry) {
    if (!std::isnan(synthetic_values[entry])) {
      maps.synthetic[entry] = static_cast<std::uint32_t>(BinIndex(synthetic_values[entry], edges));
    }
  }
}

// Maps each row through its dictionary code; missing rows get `missing_code`.
void MapRows(const RawColumn& column, const std::vector<std::uint32_t>& map,
             std::uint32_t missing_code, std::vector<std::uint32_t>& codes,
             std::vector<std::uint64_t>& counts) {
  codes.resize(column.num_rows());
  for (std::size_t row = 0; row < column.num_rows(); ++row) {
    const std::uint32_t raw = column.codes[row];
    const std::uint32_t code = raw == kMissingCode ? missing_code : map[raw];
    codes[row] = code;
    ++counts[code];
  }
}

}  // namespace

Result<ColumnSources> FindColumnSources(const RawTable& real, const RawTable& synthetic,
                                        const Schema& schema, const RawColumn& real_column) {
  ColumnSources sources;
  sources.real = &real_column;
  const int schema_index = schema.ColumnIndex(real_column.name);
  if (schema_index < 0) {
    return InvalidArgument("the schema has no column '" + real_column.name + "' of real table " +
                           real.source);
  }
  sources.schema = &schema.columns[static_cast<std::size_t>(schema_index)];
  sources.exclusion = ExclusionReason(real_column, *sources.schema);
  const int synthetic_index = synthetic.ColumnIndex(real_column.name);
  if (synthetic_index >= 0) {
    sources.synthetic = &synthetic.columns[static_cast<std::size_t>(synthetic_index)];
  } else if (sources.exclusion.empty()) {
    return InvalidArgument("synthetic table " + synthetic.source + " has no column '" +
                           real_column.name + "' (a compared column of real table " + real.source +
                           ")");
  }
  return sources;
}

std::string ExclusionReason(const RawColumn& real, const ColumnSchema& schema) {
  if (schema.role == ColumnRole::kIdentifier) return "role identifier";
  if (schema.role == ColumnRole::kIgnore) return "role ignore";
  // Every row a different non-missing text (each dictionary entry holds at least one row).
  if (real.num_rows() >= 2 && real.distinct() == real.num_rows()) {
    return "all values distinct";
  }
  return "";
}

std::vector<double> EqualWidthEdges(double lo, double hi, int bins) {
  assert(bins >= 1 && "EqualWidthEdges needs at least one bin");
  if (lo == hi) {  // one value: a unit-wide range around it, as numpy.histogram does
    lo -= 0.5;
    hi += 0.5;
  }
  // lo + (hi - lo) * i / bins rather than lo + i * step: multiplying first keeps edges exact
  // where they can be (range 98 over 20 bins: edge 10 is 1 + 49, not 1 + 10 * 4.9).
  std::vector<double> edges;
  edges.reserve(static_cast<std::size_t>(bins) + 1);
  const double range = hi - lo;
  for (int i = 0; i < bins; ++i) edges.push_back(lo + range * i / bins);
  edges.push_back(hi);
  return edges;
}

int BinIndex(double value, const std::vector<double>& edges) {
  const int bins = static_cast<int>(edges.size()) - 1;
  const double lo = edges.front();
  const double hi = edges.back();
  if (!(value > lo)) return 0;
  if (value >= hi) return bins - 1;
  // A first guess from the arithmetic, then corrected against the edges themselves (as
  // numpy.histogram does) so that a value equal to an edge always lands in the bin it opens.
  int bin = std::clamp(static_cast<int>((value - lo) / (hi - lo) * bins), 0, bins - 1);
  if (value < edges[static_cast<std::size_t>(bin)]) {
    --bin;
  } else if (bin + 1 < bins && value >= edges[static_cast<std::size_t>(bin) + 1]) {
    ++bin;
  }
  return bin;
}

ComparedColumn EncodeComparedColumn(const RawColumn& real, const RawColumn& synthetic,
                                    const ColumnSchema& schema, int bins,
                                    int max_distinct_for_values) {
  ComparedColumn column;
  column.name = real.name;
  CodeMaps maps{std::vector<std::uint32_t>(real.distinct(), kUnassigned),
                std::vector<std::uint32_t>(synthetic.distinct(), kUnassigned)};

  if (schema.is_numeric()) {
    // Integer columns are read as any number, so that a synthetic "1.0" or "1e0" is the value
    // 1 (the Integer parser rejects them) and a synthetic 2.5 still has its place.
    ColumnSchema number_schema = schema;
    if (number_schema.type == DataType::kInteger) number_schema.type = DataType::kFloat;
    const std::vector<double> real_values = NumericDictionaryValues(real, number_schema);
    const std::vector<double> synthetic_values = NumericDictionaryValues(synthetic, number_schema);
    std::vector<double> real_numbers;
    for (double v : real_values) {
      if (!std::isnan(v)) real_numbers.push_back(v);
    }
    std::sort(real_numbers.begin(), real_numbers.end());
    real_numbers.erase(std::unique(real_numbers.begin(), real_numbers.end()), real_numbers.end());
    if (real_numbers.size() > static_cast<std::size_t>(max_distinct_for_values)) {
      column.kind = ComparisonKind::kBinned;
      column.bins = static_cast<std::uint32_t>(bins);
      AssignBinCodes(real_numbers, real_values, synthetic_values, schema, bins, maps,
                     column.labels);
    } else {
      column.kind = ComparisonKind::kValues;
      AssignNumberCodes(real, real_values, synthetic, synthetic_values, maps, column.labels);
    }
    // Cells that do not parse as the column's type: categories by exact text.
    AssignTextCodes(real, IsNaN(real_values), synthetic, IsNaN(synthetic_values), maps,
                    column.labels);
  } else {
    column.kind = ComparisonKind::kValues;
    AssignTextCodes(real, std::vector<bool>(real.distinct(), true), synthetic,
                    std::vector<bool>(synthetic.distinct(), true), maps, column.labels);
  }

  std::uint32_t missing_code = kUnassigned;
  auto has_missing = [](const RawColumn& raw) {
    return std::find(raw.codes.begin(), raw.codes.end(), kMissingCode) != raw.codes.end();
  };
  if (has_missing(real) || has_missing(synthetic)) {
    column.has_missing = true;
    missing_code = column.categories();
    column.labels.push_back(kMissingLabel);
  }
  column.real_counts.assign(column.categories(), 0);
  column.synthetic_counts.assign(column.categories(), 0);
  MapRows(real, maps.real, missing_code, column.real_codes, column.real_counts);
  MapRows(synthetic, maps.synthetic, missing_code, column.synthetic_codes, column.synthetic_counts);
  return column;
}

}  // namespace deniable::internal
