// SPDX-License-Identifier: Apache-2.0
#include "engine/model/union_items.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "engine/schema/typed_values.h"

namespace deniable {

std::vector<ValueCount> CategoricalValues(const RawColumn& raw, const ColumnSchema& column,
                                          std::uint64_t& missing) {
  missing = raw.missing_count;
  std::vector<ValueCount> values;
  if (column.is_numeric()) {
    const std::vector<double> parsed = NumericDictionaryValues(raw, column);
    std::map<double, std::size_t> index;
    for (std::size_t i = 0; i < raw.dictionary.size(); ++i) {
      if (std::isnan(parsed[i])) {
        missing += raw.counts[i];
        continue;
      }
      auto [it, inserted] = index.emplace(parsed[i], values.size());
      if (inserted) {
        ValueCount value;
        value.number = parsed[i];
        FormatNumericCell(parsed[i], column, value.text);
        values.push_back(std::move(value));
      }
      values[it->second].count += raw.counts[i];
    }
  } else {
    values.reserve(raw.dictionary.size());
    for (std::size_t i = 0; i < raw.dictionary.size(); ++i) {
      values.push_back(ValueCount{raw.dictionary[i], 0, raw.counts[i]});
    }
  }
  return values;
}

ColumnItems MakeItems(const RawColumn& raw, const ColumnSchema& column, bool with_values) {
  ColumnItems items;
  items.item_of_entry.assign(raw.dictionary.size(), kNoItem);
  if (with_values) {
    std::uint64_t missing = 0;
    items.values = CategoricalValues(raw, column, missing);
    items.missing_item = static_cast<std::uint32_t>(items.values.size());
    items.items = items.missing_item + 1;
    // Map dictionary entries to value items (numeric categoricals merge by value).
    if (column.is_numeric()) {
      const std::vector<double> parsed = NumericDictionaryValues(raw, column);
      std::map<double, std::uint32_t> index;
      for (std::uint32_t i = 0; i < items.values.size(); ++i) index[items.values[i].number] = i;
      for (std::size_t e = 0; e < parsed.size(); ++e) {
        items.item_of_entry[e] = std::isnan(parsed[e]) ? items.missing_item : index[parsed[e]];
      }
    } else {
      for (std::size_t e = 0; e < raw.dictionary.size(); ++e) {
        items.item_of_entry[e] = static_cast<std::uint32_t>(e);
      }
    }
    return items;
  }
  items.missing_item = 0;
  items.items = 1;
  if (column.public_categories) {
    std::vector<std::string> listed = *column.public_categories;
    std::sort(listed.begin(), listed.end());
    std::vector<double> listed_numbers;
    if (column.is_numeric()) {
      for (const auto& text : listed) {
        if (auto number = ParseNumericCell(text, column)) listed_numbers.push_back(*number);
      }
      std::sort(listed_numbers.begin(), listed_numbers.end());
    }
    const std::vector<double> parsed =
        column.is_numeric() ? NumericDictionaryValues(raw, column) : std::vector<double>();
    for (std::size_t e = 0; e < raw.dictionary.size(); ++e) {
      const bool inside = column.is_numeric()
          ? !std::isnan(parsed[e]) &&
                std::binary_search(listed_numbers.begin(), listed_numbers.end(), parsed[e])
          : std::binary_search(listed.begin(), listed.end(), raw.dictionary[e]);
      if (!inside) items.item_of_entry[e] = 0;
    }
  } else {
    const std::vector<double> parsed = NumericDictionaryValues(raw, column);
    for (std::size_t e = 0; e < parsed.size(); ++e) {
      if (std::isnan(parsed[e])) items.item_of_entry[e] = 0;
    }
  }
  return items;
}

UnionItems MakeUnionItems(const RawTable& table, const Schema& schema,
                          const std::vector<int>& modelled, bool with_records,
                          MissingMarkers markers) {
  UnionItems out;
  out.items.resize(modelled.size());
  out.group_of.assign(modelled.size(), -1);
  out.input.records = table.num_rows();
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    const ColumnSchema& column = schema.columns[static_cast<std::size_t>(modelled[k])];
    const DomainNeed need = DomainNeedOf(schema, static_cast<std::size_t>(modelled[k]));
    if (need == DomainNeed::kHistogram || need == DomainNeed::kGeo) continue;
    const RawColumn& raw = table.columns[static_cast<std::size_t>(modelled[k])];
    out.items[k] = MakeItems(raw, column, need == DomainNeed::kSetUnion);
    const bool by_model = markers == MissingMarkers::kModel;
    if (!with_records || (by_model && need != DomainNeed::kSetUnion)) continue;
    const std::uint32_t missing_item = by_model ? kNoItem : out.items[k].missing_item;
    std::vector<std::uint32_t> values(raw.num_rows(), kNoItem);
    for (std::size_t r = 0; r < values.size(); ++r) {
      const std::uint32_t code = raw.codes[r];
      values[r] = code == kMissingCode ? missing_item : out.items[k].item_of_entry[code];
      // An unparsable numeric cell reads as missing (MakeItems).
      if (by_model && values[r] == out.items[k].missing_item) values[r] = kNoItem;
    }
    out.group_of[k] = static_cast<int>(out.input.values.size());
    out.input.values.push_back(std::move(values));
    out.input.value_counts.push_back(out.items[k].items);
  }
  return out;
}

}  // namespace deniable
