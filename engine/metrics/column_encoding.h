// SPDX-License-Identifier: Apache-2.0
// Internal to engine/metrics: turns one real column and its synthetic counterpart into integer
// codes in ONE shared code space (the categories the TVD and mutual information are taken
// over), following the rules documented in marginals.h. Not API: use CompareTables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/metrics/metric_report.h"
#include "engine/schema/schema.h"

namespace deniable::internal {

// A compared column: category c has label labels[c]; every real and synthetic row holds a code
// in [0, categories()).
struct ComparedColumn {
  std::string name;
  ComparisonKind kind = ComparisonKind::kValues;
  std::vector<std::string> labels;              // per code, in display order
  std::vector<std::uint32_t> real_codes;        // per real row
  std::vector<std::uint32_t> synthetic_codes;   // per synthetic row
  std::vector<std::uint64_t> real_counts;       // per code
  std::vector<std::uint64_t> synthetic_counts;  // per code
  std::uint32_t bins = 0;                       // kBinned: codes [0, bins) are the bins
  bool has_missing = false;                     // the last code is "(missing)"

  std::uint32_t categories() const { return static_cast<std::uint32_t>(labels.size()); }
};

// Where a real column's data and type come from, and whether it is compared.
struct ColumnSources {
  const RawColumn* real = nullptr;
  const RawColumn* synthetic = nullptr;  // null when excluded and absent from the synthetic table
  const ColumnSchema* schema = nullptr;
  std::string exclusion;  // ExclusionReason(); empty when compared
};

// Finds the schema entry and the synthetic column (by name) of `real_column`, a column of
// `real`. Errors (kInvalidArgument, naming the column): no schema entry; a compared column
// missing from the synthetic table.
Result<ColumnSources> FindColumnSources(const RawTable& real, const RawTable& synthetic,
                                        const Schema& schema, const RawColumn& real_column);

// Why the real column is left out ("role identifier", "role ignore", "all values distinct"),
// or an empty string when it is compared.
std::string ExclusionReason(const RawColumn& real, const ColumnSchema& schema);

// Equal-width bin edges over [lo, hi]: edge i = lo + (hi - lo) * i / bins, the last one exactly
// hi; bins + 1 values. When lo == hi the range is [lo - 0.5, hi + 0.5] (as numpy.histogram).
std::vector<double> EqualWidthEdges(double lo, double hi, int bins);

// The bin of `value` for `edges` from EqualWidthEdges: bin i holds [edges[i], edges[i+1]), the
// last bin also its right edge; values below edges.front() (or -inf) go to bin 0, values above
// edges.back() (or +inf) to the last bin. `value` must not be NaN.
int BinIndex(double value, const std::vector<double>& edges);

// Encodes a column that ExclusionReason() accepts. bins >= 1, max_distinct_for_values >= 0.
ComparedColumn EncodeComparedColumn(const RawColumn& real, const RawColumn& synthetic,
                                    const ColumnSchema& schema, int bins,
                                    int max_distinct_for_values);

}  // namespace deniable::internal
