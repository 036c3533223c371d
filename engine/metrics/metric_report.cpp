// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/metric_report.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace deniable {
namespace {

constexpr std::size_t kWorstPairsShown = 5;
constexpr std::size_t kMaxNameWidth = 32;

std::string Fixed4(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", value);
  return buffer;
}

std::string Padded(const std::string& text, std::size_t width) {
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

}  // namespace

const char* ComparisonKindName(ComparisonKind kind) {
  switch (kind) {
    case ComparisonKind::kBinned:
      return "binned";
    case ComparisonKind::kValues:
      return "values";
  }
  return "values";
}

nlohmann::json MetricReportToJson(const MetricReport& report) {
  nlohmann::json json;
  json["format"] = "deniable-metrics";
  json["version"] = 1;
  json["measure"] = {{"bins", report.bins},
                     {"max_distinct_for_values", report.max_distinct_for_values}};
  json["real_rows"] = report.real_rows;
  json["synthetic_rows"] = report.synthetic_rows;
  json["mean_column_tvd"] = report.mean_column_tvd;
  json["mean_pair_tvd"] =
      report.mean_pair_tvd ? nlohmann::json(*report.mean_pair_tvd) : nlohmann::json(nullptr);
  json["pair_count"] = report.pair_count();
  nlohmann::json columns = nlohmann::json::array();
  nlohmann::json names = nlohmann::json::array();
  for (const ColumnComparison& column : report.columns) {
    columns.push_back({{"name", column.name},
                       {"kind", ComparisonKindName(column.kind)},
                       {"tvd", column.tvd},
                       {"categories", column.categories},
                       {"histogram",
                        {{"labels", column.histogram.labels},
                         {"real", column.histogram.real},
                         {"synthetic", column.histogram.synthetic}}}});
    names.push_back(column.name);
  }
  json["columns"] = std::move(columns);
  json["matrix_columns"] = std::move(names);
  json["pair_tvd"] = report.pair_tvd;
  json["nmi_real"] = report.nmi_real;
  json["nmi_synthetic"] = report.nmi_synthetic;
  nlohmann::json excluded = nlohmann::json::array();
  for (const ExcludedColumn& column : report.excluded) {
    excluded.push_back({{"name", column.name}, {"reason", column.reason}});
  }
  json["excluded"] = std::move(excluded);
  json["ignored_synthetic_columns"] = report.ignored_synthetic_columns;
  return json;
}

std::string MetricReportSummary(const MetricReport& report) {
  std::string out;
  out += "Compared " + std::to_string(report.columns.size()) + " of " +
         std::to_string(report.columns.size() + report.excluded.size()) +
         " columns: " + std::to_string(report.real_rows) + " real rows, " +
         std::to_string(report.synthetic_rows) + " synthetic rows.\n";
  if (report.mean_pair_tvd) {
    out += "Mean 2-way TVD: " + Fixed4(*report.mean_pair_tvd) + " over " +
           std::to_string(report.pair_count()) + " column pairs (0 = identical, 1 = disjoint)\n";
  } else {
    out += "Mean 2-way TVD: undefined (fewer than two columns compared)\n";
  }
  out += "Mean 1-way TVD: " + Fixed4(report.mean_column_tvd) + "\n\n";

  std::size_t width = 6;
  for (const ColumnComparison& column : report.columns) {
    width = std::max(width, std::min(column.name.size(), kMaxNameWidth));
  }
  width += 2;
  out += Padded("column", width) + "kind    TVD\n";
  for (const ColumnComparison& column : report.columns) {
    out += Padded(column.name, width) + Padded(ComparisonKindName(column.kind), 8) +
           Fixed4(column.tvd) + "\n";
  }

  std::vector<std::tuple<double, std::size_t, std::size_t>> pairs;
  for (std::size_t i = 0; i < report.pair_tvd.size(); ++i) {
    for (std::size_t j = i + 1; j < report.pair_tvd.size(); ++j) {
      pairs.emplace_back(report.pair_tvd[i][j], i, j);
    }
  }
  // Largest TVD first; ties in column order, so the output is deterministic.
  std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) {
    if (std::get<0>(a) != std::get<0>(b)) return std::get<0>(a) > std::get<0>(b);
    return std::tie(std::get<1>(a), std::get<2>(a)) < std::tie(std::get<1>(b), std::get<2>(b));
  });
  if (!pairs.empty()) {
    out += "\nWorst column pairs (2-way TVD):\n";
    for (std::size_t p = 0; p < std::min(kWorstPairsShown, pairs.size()); ++p) {
      const auto& [tvd, i, j] = pairs[p];
      out += "  (" + report.columns[i].name + ", " + report.columns[j].name + "): " + Fixed4(tvd) +
             "\n";
    }
  }
  if (!report.excluded.empty()) {
    out += "\nExcluded:";
    for (const ExcludedColumn& column : report.excluded) {
      out += " " + column.name + " (" + column.reason + ")";
      if (&column != &report.excluded.back()) out += ",";
    }
    out += "\n";
  }
  if (!report.ignored_synthetic_columns.empty()) {
    out += "Ignored synthetic columns (not in the real table):";
    for (const std::string& name : report.ignored_synthetic_columns) out += " " + name;
    out += "\n";
  }
  return out;
}

}  // namespace deniable
