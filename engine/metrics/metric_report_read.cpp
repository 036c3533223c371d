// SPDX-License-Identifier: Apache-2.0
// MetricReportFromJson: reads back what MetricReportToJson wrote, checking every field.
#include <cmath>
#include <string>
#include <vector>

#include "engine/metrics/metric_report.h"

namespace deniable {
namespace {

using Json = nlohmann::json;

Error Bad(const std::string& path, const std::string& what) {
  return ParseError("metrics JSON: '" + path + "' " + what);
}

Result<const Json*> Field(const Json& object, const std::string& path, const char* key) {
  if (!object.is_object()) {
    if (path.empty()) return ParseError("metrics JSON: the document must be an object");
    return Bad(path, "must be an object");
  }
  auto it = object.find(key);
  if (it == object.end()) return Bad(path.empty() ? key : path + "." + key, "is missing");
  return &*it;
}

Result<double> Fraction(const Json& value, const std::string& path) {
  if (!value.is_number()) return Bad(path, "must be a number");
  const double x = value.get<double>();
  if (!(x >= 0 && x <= 1)) return Bad(path, "must be in [0, 1] (got " + value.dump() + ")");
  return x;
}

Result<std::uint64_t> Count(const Json& value, const std::string& path) {
  if (!value.is_number_unsigned()) return Bad(path, "must be a non-negative integer");
  return value.get<std::uint64_t>();
}

Result<std::string> Text(const Json& value, const std::string& path) {
  if (!value.is_string()) return Bad(path, "must be a string");
  return value.get<std::string>();
}

Result<std::vector<double>> Fractions(const Json& value, const std::string& path,
                                      std::size_t size) {
  if (!value.is_array() || value.size() != size) {
    return Bad(path, "must be an array of " + std::to_string(size) + " numbers");
  }
  std::vector<double> out;
  for (std::size_t i = 0; i < size; ++i) {
    auto x = Fraction(value[i], path + "[" + std::to_string(i) + "]");
    if (!x) return x.error();
    out.push_back(*x);
  }
  return out;
}

Result<std::vector<std::string>> Texts(const Json& value, const std::string& path) {
  if (!value.is_array()) return Bad(path, "must be an array of strings");
  std::vector<std::string> out;
  for (std::size_t i = 0; i < value.size(); ++i) {
    auto text = Text(value[i], path + "[" + std::to_string(i) + "]");
    if (!text) return text.error();
    out.push_back(*text);
  }
  return out;
}

Result<std::vector<std::vector<double>>> Matrix(const Json& root, const char* key, std::size_t k) {
  auto value = Field(root, "", key);
  if (!value) return value.error();
  if (!(*value)->is_array() || (*value)->size() != k) {
    return Bad(key, "must be a " + std::to_string(k) + " x " + std::to_string(k) + " array");
  }
  std::vector<std::vector<double>> out;
  for (std::size_t i = 0; i < k; ++i) {
    auto row = Fractions((**value)[i], std::string(key) + "[" + std::to_string(i) + "]", k);
    if (!row) return row.error();
    out.push_back(std::move(*row));
  }
  return out;
}

Result<ColumnComparison> ReadColumn(const Json& json, const std::string& path) {
  ColumnComparison column;
  auto name = Field(json, path, "name");
  if (!name) return name.error();
  auto name_text = Text(**name, path + ".name");
  if (!name_text) return name_text.error();
  column.name = *name_text;
  auto kind = Field(json, path, "kind");
  if (!kind) return kind.error();
  if (**kind == "binned") {
    column.kind = ComparisonKind::kBinned;
  } else if (**kind == "values") {
    column.kind = ComparisonKind::kValues;
  } else {
    return Bad(path + ".kind", "must be \"binned\" or \"values\" (got " + (*kind)->dump() + ")");
  }
  auto tvd = Field(json, path, "tvd");
  if (!tvd) return tvd.error();
  auto tvd_value = Fraction(**tvd, path + ".tvd");
  if (!tvd_value) return tvd_value.error();
  column.tvd = *tvd_value;
  auto categories = Field(json, path, "categories");
  if (!categories) return categories.error();
  auto category_count = Count(**categories, path + ".categories");
  if (!category_count) return category_count.error();
  column.categories = *category_count;
  auto histogram = Field(json, path, "histogram");
  if (!histogram) return histogram.error();
  const std::string hpath = path + ".histogram";
  auto labels = Field(**histogram, hpath, "labels");
  if (!labels) return labels.error();
  auto label_texts = Texts(**labels, hpath + ".labels");
  if (!label_texts) return label_texts.error();
  column.histogram.labels = std::move(*label_texts);
  const std::size_t size = column.histogram.labels.size();
  for (const char* side : {"real", "synthetic"}) {
    auto values = Field(**histogram, hpath, side);
    if (!values) return values.error();
    auto fractions = Fractions(**values, hpath + "." + side, size);
    if (!fractions) return fractions.error();
    (std::string(side) == "real" ? column.histogram.real : column.histogram.synthetic) =
        std::move(*fractions);
  }
  return column;
}

}  // namespace

Result<MetricReport> MetricReportFromJson(const Json& json) {
  auto format = Field(json, "", "format");
  if (!format) return format.error();
  if (**format != "deniable-metrics") return Bad("format", "must be \"deniable-metrics\"");
  auto version = Field(json, "", "version");
  if (!version) return version.error();
  if (**version != 1) return Bad("version", "must be 1 (got " + (*version)->dump() + ")");

  MetricReport report;
  auto measure = Field(json, "", "measure");
  if (!measure) return measure.error();
  for (const char* key : {"bins", "max_distinct_for_values"}) {
    auto value = Field(**measure, "measure", key);
    if (!value) return value.error();
    if (!(*value)->is_number_integer())
      return Bad(std::string("measure.") + key, "must be an integer");
    (std::string(key) == "bins" ? report.bins : report.max_distinct_for_values) =
        (*value)->get<int>();
  }
  for (const char* key : {"real_rows", "synthetic_rows"}) {
    auto value = Field(json, "", key);
    if (!value) return value.error();
    auto count = Count(**value, key);
    if (!count) return count.error();
    (std::string(key) == "real_rows" ? report.real_rows : report.synthetic_rows) = *count;
  }
  auto columns = Field(json, "", "columns");
  if (!columns) return columns.error();
  if (!(*columns)->is_array()) return Bad("columns", "must be an array");
  for (std::size_t i = 0; i < (*columns)->size(); ++i) {
    auto column = ReadColumn((**columns)[i], "columns[" + std::to_string(i) + "]");
    if (!column) return column.error();
    report.columns.push_back(std::move(*column));
  }
  auto mean_column = Field(json, "", "mean_column_tvd");
  if (!mean_column) return mean_column.error();
  auto mean_column_value = Fraction(**mean_column, "mean_column_tvd");
  if (!mean_column_value) return mean_column_value.error();
  report.mean_column_tvd = *mean_column_value;
  auto mean_pair = Field(json, "", "mean_pair_tvd");
  if (!mean_pair) return mean_pair.error();
  if (!(*mean_pair)->is_null()) {
    auto mean_pair_value = Fraction(**mean_pair, "mean_pair_tvd");
    if (!mean_pair_value) return mean_pair_value.error();
    report.mean_pair_tvd = *mean_pair_value;
  }
  const std::size_t k = report.columns.size();
  for (auto [key, matrix] :
       {std::pair{"pair_tvd", &report.pair_tvd}, std::pair{"nmi_real", &report.nmi_real},
        std::pair{"nmi_synthetic", &report.nmi_synthetic}}) {
    auto values = Matrix(json, key, k);
    if (!values) return values.error();
    *matrix = std::move(*values);
  }
  auto excluded = Field(json, "", "excluded");
  if (!excluded) return excluded.error();
  if (!(*excluded)->is_array()) return Bad("excluded", "must be an array");
  for (std::size_t i = 0; i < (*excluded)->size(); ++i) {
    const std::string path = "excluded[" + std::to_string(i) + "]";
    ExcludedColumn column;
    for (const char* key : {"name", "reason"}) {
      auto value = Field((**excluded)[i], path, key);
      if (!value) return value.error();
      auto text = Text(**value, path + "." + key);
      if (!text) return text.error();
      (std::string(key) == "name" ? column.name : column.reason) = *text;
    }
    report.excluded.push_back(std::move(column));
  }
  auto ignored = Field(json, "", "ignored_synthetic_columns");
  if (!ignored) return ignored.error();
  auto ignored_names = Texts(**ignored, "ignored_synthetic_columns");
  if (!ignored_names) return ignored_names.error();
  report.ignored_synthetic_columns = std::move(*ignored_names);
  return report;
}

}  // namespace deniable
