// SPDX-License-Identifier: Apache-2.0
// The DP set union's input for a table (internal to engine/model: BuildDomains and
// ForecastDomains in domains.cpp): per modelled column its items — its values, when its
// category list is not public, and its "missing" marker — and the per-record item of each
// column that takes part. Reads the real data; releases nothing (the union decides).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/core/table.h"
#include "engine/dp/set_union.h"
#include "engine/model/domain_budget.h"
#include "engine/schema/schema.h"

namespace deniable {

struct ValueCount {
  std::string text;     // category label as released
  double number = 0;    // for numeric categorical columns (sorting and matching)
  std::uint64_t count = 0;
};

// Distinct values of a categorical column with their counts; for numeric types values that
// parse to the same number merge ("1" and "1.0"), and texts that fail to parse count as
// missing (they read as missing everywhere).
std::vector<ValueCount> CategoricalValues(const RawColumn& raw, const ColumnSchema& column,
                                          std::uint64_t& missing);

// How one modelled column takes part in the DP set union: its items are its values (when the
// category list is not public) and its "missing" marker.
struct ColumnItems {
  std::vector<ValueCount> values;            // categorical columns without a public list
  std::vector<std::uint32_t> item_of_entry;  // per dictionary entry: item index or kNoItem
  std::uint32_t missing_item = 0;            // index of the "missing" item
  std::uint32_t items = 0;                   // number of item indices in this group
};

// Items of one column: its values (when `with_values`: a String column without a public list,
// not free text) and its missing marker. For a public category list, values outside the list
// read as missing; for numeric columns, unparsable cells read as missing.
ColumnItems MakeItems(const RawColumn& raw, const ColumnSchema& column, bool with_values);

// The set union's input (domains.h): per modelled column its items, and the groups of the
// columns taking part (values of union columns, the missing marker of every column that is not
// a numeric histogram column). `with_records` false: items only, no per-record values.
struct UnionItems {
  std::vector<ColumnItems> items;  // per modelled column (empty for histogram columns)
  std::vector<int> group_of;       // per modelled column: its group in `input`, or -1
  SetUnionInput input;
};

// `markers` kModel: only the columns whose values are learnt take part, without their missing
// marker (a missing cell is no item).
UnionItems MakeUnionItems(const RawTable& table, const Schema& schema,
                          const std::vector<int>& modelled, bool with_records,
                          MissingMarkers markers);

}  // namespace deniable
