// SPDX-License-Identifier: Apache-2.0
#include "engine/metrics/compare_inputs.h"

#include <limits>
#include <string>

namespace deniable::internal {
namespace {

constexpr int kMaxBins = 100'000;
constexpr int kMaxThreads = 256;

}  // namespace

Result<std::uint64_t> CheckedRowCount(const RawTable& table, const char* which) {
  if (table.columns.empty()) {
    return FailedPrecondition(std::string(which) + " table " + table.source + " has no columns");
  }
  const std::size_t rows = table.columns.front().num_rows();
  for (const RawColumn& column : table.columns) {
    if (column.num_rows() != rows) {
      return InternalError(std::string(which) + " table " + table.source + ": column '" +
                           column.name + "' has " + std::to_string(column.num_rows()) +
                           " rows, the first column " + std::to_string(rows));
    }
  }
  if (rows == 0) {
    return FailedPrecondition(std::string(which) + " table " + table.source + " has no rows");
  }
  // Joint counts are 32-bit.
  if (rows > std::numeric_limits<std::uint32_t>::max()) {
    return FailedPrecondition(std::string(which) + " table " + table.source + " has " +
                              std::to_string(rows) + " rows; at most 4294967295 are supported");
  }
  return std::uint64_t{rows};
}

Status ValidateCompareOptions(const CompareOptions& options) {
  if (options.bins < 1 || options.bins > kMaxBins) {
    return InvalidArgument("bins must be between 1 and " + std::to_string(kMaxBins) + " (got " +
                           std::to_string(options.bins) + ")");
  }
  if (options.max_distinct_for_values < 0) {
    return InvalidArgument("max_distinct_for_values must be at least 0 (got " +
                           std::to_string(options.max_distinct_for_values) + ")");
  }
  if (options.max_histogram_categories < 0) {
    return InvalidArgument("max_histogram_categories must be at least 0 (got " +
                           std::to_string(options.max_histogram_categories) + ")");
  }
  if (options.threads < 0 || options.threads > kMaxThreads) {
    return InvalidArgument("threads must be between 0 and " + std::to_string(kMaxThreads) +
                           " (got " + std::to_string(options.threads) + ")");
  }
  return OkStatus();
}

}  // namespace deniable::internal
