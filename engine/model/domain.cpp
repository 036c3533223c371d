// SPDX-License-Identifier: Apache-2.0
#include "engine/model/domain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/schema/datetime.h"
#include "engine/schema/typed_values.h"

namespace deniable {

const char* DomainSourceName(DomainSource source) {
  switch (source) {
    case DomainSource::kPublic: return "public";
    case DomainSource::kDp: return "dp";
    case DomainSource::kImported: return "imported";
  }
  return "unknown";
}

std::uint32_t ColumnDomain::BinOf(double value) const {
  if (bins <= 1 || !(span() > 0)) return 0;
  const double position = std::floor((value - lo) / bin_width());
  if (!(position > 0)) return 0;  // also NaN
  if (position >= bins - 1) return static_cast<std::uint32_t>(bins - 1);
  // Guard the floating-point boundary: a value exactly on an edge belongs to the right bin.
  auto bin = static_cast<std::uint32_t>(position);
  if (bin + 1 < static_cast<std::uint32_t>(bins) && value >= BinLeft(bin + 1)) ++bin;
  return bin;
}

// The corrections below only absorb floating-point rounding at a bin edge, one or two steps;
// kEdgeSteps bounds them so that a domain beyond 2^53, where x + 1 == x, cannot spin forever.
constexpr int kEdgeSteps = 4;

double ColumnDomain::FirstIntegerOf(std::uint32_t bin) const {
  // Smallest integer i >= lo with BinOf(i) == bin.
  double first = std::ceil(BinLeft(bin));
  for (int step = 0; step < kEdgeSteps && first > lo && BinOf(first - 1) == bin; ++step) first -= 1;
  for (int step = 0; step < kEdgeSteps && BinOf(first) < bin && first <= hi; ++step) first += 1;
  return std::max(first, lo);
}

double ColumnDomain::LastIntegerOf(std::uint32_t bin) const {
  double last = std::ceil(BinRight(bin)) - 1;
  for (int step = 0; step < kEdgeSteps && last < hi && BinOf(last + 1) == bin; ++step) last += 1;
  for (int step = 0; step < kEdgeSteps && last >= lo && BinOf(last) > bin; ++step) last -= 1;
  return std::min(last, hi);
}

int ColumnDomain::SubCellsPerBinFor(const ColumnDomain& domain) {
  if (domain.integer_steps && domain.hi - domain.lo + 1 <= static_cast<double>(kMaxSubCells)) {
    return 0;
  }
  return kSubCellsPerBin;
}

std::pair<std::size_t, std::size_t> ColumnDomain::SubCellsOfBin(std::uint32_t bin) const {
  if (sub_per_bin > 0) {
    const auto per = static_cast<std::size_t>(sub_per_bin);
    return {bin * per, (bin + 1) * per};
  }
  const double first = FirstIntegerOf(bin), last = LastIntegerOf(bin);
  if (last < first) return {0, 0};
  return {static_cast<std::size_t>(first - lo), static_cast<std::size_t>(last - lo) + 1};
}

std::size_t ColumnDomain::SubCellOf(double value) const {
  const std::uint32_t bin = BinOf(value);
  if (sub_per_bin == 0) {
    const double clamped = std::clamp(std::round(value), lo, hi);
    return static_cast<std::size_t>(clamped - lo);
  }
  const double left = BinLeft(bin), right = BinRight(bin);
  double position = right > left ? (value - left) / (right - left) * sub_per_bin : 0;
  position = std::clamp(std::floor(position), 0.0, static_cast<double>(sub_per_bin - 1));
  return bin * static_cast<std::size_t>(sub_per_bin) + static_cast<std::size_t>(position);
}

double ColumnDomain::SubCellLeft(std::size_t cell) const {
  if (sub_per_bin == 0) return lo + static_cast<double>(cell);
  const auto bin = static_cast<std::uint32_t>(cell / static_cast<std::size_t>(sub_per_bin));
  const double left = BinLeft(bin), right = BinRight(bin);
  const double index = static_cast<double>(cell % static_cast<std::size_t>(sub_per_bin));
  return left + (right - left) * index / sub_per_bin;
}

double ColumnDomain::SubCellRight(std::size_t cell) const {
  if (sub_per_bin == 0) return lo + static_cast<double>(cell) + 1;
  const auto bin = static_cast<std::uint32_t>(cell / static_cast<std::size_t>(sub_per_bin));
  const double left = BinLeft(bin), right = BinRight(bin);
  const double index = static_cast<double>(cell % static_cast<std::size_t>(sub_per_bin)) + 1;
  return left + (right - left) * index / sub_per_bin;
}

namespace {

void AppendNumber(double value, const ColumnDomain& domain, const ColumnSchema* column,
                  std::string& out) {
  if (column != nullptr) {
    FormatNumericCell(value, *column, out);
    return;
  }
  if (domain.type == DataType::kInteger || domain.integer_steps) {
    out += std::to_string(static_cast<long long>(std::llround(value)));
  } else {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    out += buffer;
  }
}

}  // namespace

std::string ColumnDomain::CodeLabel(std::uint32_t code, const ColumnSchema* column) const {
  if (is_missing_code(code)) return "(missing)";
  if (categorical) {
    if (code < categories.size()) return categories[code];
    if (has_other && code == other_code()) return other_label;
    return "(invalid code)";
  }
  if (code >= static_cast<std::uint32_t>(bins)) return "(invalid code)";
  std::string label;
  if (integer_steps) {
    const double first = FirstIntegerOf(code), last = LastIntegerOf(code);
    AppendNumber(first, *this, column, label);
    if (last > first) {
      label += "–";
      AppendNumber(last, *this, column, label);
    }
    return label;
  }
  label = "[";
  AppendNumber(BinLeft(code), *this, column, label);
  label += ", ";
  AppendNumber(BinRight(code), *this, column, label);
  label += code + 1 == static_cast<std::uint32_t>(bins) ? "]" : ")";
  return label;
}

}  // namespace deniable
