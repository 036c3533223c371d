// SPDX-License-Identifier: Apache-2.0
#include "engine/histogram/calendar_decomposition.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "engine/dp/validation.h"
#include "engine/histogram/decomposition.h"
#include "engine/schema/datetime.h"

namespace deniable {
namespace {

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if (a % b != 0 && a < 0) --q;
  return q;
}

std::int64_t YearStart(std::int64_t year) { return DaysFromCivil(year, 1, 1) * kSecondsPerDay; }

using Level = CalendarDecomposition::Level;

}  // namespace

Result<CalendarDecomposition> CalendarDecomposition::Create(std::int64_t resolution_seconds,
                                                            std::int64_t first_year,
                                                            std::int64_t end_year) {
  CalendarDecomposition d;
  switch (resolution_seconds) {
    case 1: d.leaf_level_ = Level::kSecond; break;
    case 60: d.leaf_level_ = Level::kMinute; break;
    case 3600: d.leaf_level_ = Level::kHour; break;
    case kSecondsPerDay: d.leaf_level_ = Level::kDay; break;
    default:
      return InvalidArgument("calendar resolution must be 1, 60, 3600 or 86400 seconds (got " +
                             std::to_string(resolution_seconds) + ")");
  }
  if (!(first_year >= 1 && first_year < end_year && end_year <= 9999)) {
    return InvalidArgument("calendar years must satisfy 1 <= first_year < end_year <= 9999 (got " +
                           std::to_string(first_year) + ", " + std::to_string(end_year) + ")");
  }
  d.resolution_ = resolution_seconds;
  d.first_year_ = first_year;
  d.root_ = Node{YearStart(first_year), YearStart(end_year), Level::kRoot};
  return d;
}

CalendarDecomposition::Value CalendarDecomposition::ToValue(double seconds) const {
  assert(!std::isnan(seconds) && "CalendarDecomposition::ToValue: NaN");
  const auto lo = static_cast<double>(root_.start);
  const auto hi = static_cast<double>(root_.end - resolution_);
  if (!(seconds > lo)) return root_.start;  // also NaN in release builds
  if (seconds >= hi) return root_.end - resolution_;
  const auto whole = static_cast<std::int64_t>(std::floor(seconds));
  return FloorDiv(whole, resolution_) * resolution_;
}

Result<std::vector<CalendarDecomposition::Value>> CalendarDecomposition::ToValues(
    std::span<const double> seconds) const {
  return internal::MapFinite<Value>(seconds, "date-time",
                                    [this](double x) { return ToValue(x); });
}

std::uint32_t CalendarDecomposition::Branching(const Node& node) const {
  if (node.level == leaf_level_) return 0;
  switch (node.level) {
    case Level::kRoot: {
      std::int64_t year = 0;
      int month = 0, day = 0;
      CivilFromDays(node.end / kSecondsPerDay, year, month, day);
      return static_cast<std::uint32_t>(year - first_year_);
    }
    case Level::kYear: return 12;
    case Level::kMonth: return static_cast<std::uint32_t>((node.end - node.start) / kSecondsPerDay);
    case Level::kDay: return 24;
    case Level::kHour:
    case Level::kMinute: return 60;
    case Level::kSecond: return 0;
  }
  return 0;
}

CalendarDecomposition::Node CalendarDecomposition::Child(const Node& node,
                                                         std::uint32_t i) const {
  const std::int64_t k = i;
  switch (node.level) {
    case Level::kRoot:
      return Node{YearStart(first_year_ + k), YearStart(first_year_ + k + 1), Level::kYear};
    case Level::kYear: {
      std::int64_t year = 0;
      int month = 0, day = 0;
      CivilFromDays(node.start / kSecondsPerDay, year, month, day);
      const auto m = static_cast<int>(k) + 1;
      const std::int64_t start = DaysFromCivil(year, m, 1) * kSecondsPerDay;
      const std::int64_t end = m == 12 ? YearStart(year + 1)
                                       : DaysFromCivil(year, m + 1, 1) * kSecondsPerDay;
      return Node{start, end, Level::kMonth};
    }
    case Level::kMonth:
      return Node{node.start + k * kSecondsPerDay, node.start + (k + 1) * kSecondsPerDay,
                  Level::kDay};
    case Level::kDay: return Node{node.start + k * 3600, node.start + (k + 1) * 3600, Level::kHour};
    case Level::kHour: return Node{node.start + k * 60, node.start + (k + 1) * 60, Level::kMinute};
    case Level::kMinute: return Node{node.start + k, node.start + k + 1, Level::kSecond};
    case Level::kSecond: break;
  }
  assert(false && "CalendarDecomposition::Child of a leaf");
  return node;
}

std::uint32_t CalendarDecomposition::ChildOf(const Node& node, const Value& value) const {
  switch (node.level) {
    case Level::kRoot:
    case Level::kYear: {
      std::int64_t year = 0;
      int month = 0, day = 0;
      CivilFromDays(FloorDiv(value, kSecondsPerDay), year, month, day);
      return static_cast<std::uint32_t>(node.level == Level::kRoot ? year - first_year_
                                                                   : month - 1);
    }
    case Level::kMonth: return static_cast<std::uint32_t>((value - node.start) / kSecondsPerDay);
    case Level::kDay: return static_cast<std::uint32_t>((value - node.start) / 3600);
    case Level::kHour: return static_cast<std::uint32_t>((value - node.start) / 60);
    case Level::kMinute: return static_cast<std::uint32_t>(value - node.start);
    case Level::kSecond: break;
  }
  return 0;
}

CalendarDecomposition::Value CalendarDecomposition::Draw(const Node& node, Rng& rng) const {
  const auto points = static_cast<std::uint64_t>((node.end - node.start) / resolution_);
  return node.start + resolution_ * static_cast<std::int64_t>(UniformBelow(rng, points));
}

std::string CalendarDecomposition::Label(const Node& node) const {
  static constexpr const char* kFormats[] = {"",        "%Y",          "%Y-%m",
                                             "%Y-%m-%d", "%Y-%m-%d %Hh", "%Y-%m-%d %H:%M",
                                             "%Y-%m-%d %H:%M:%S"};
  std::string out;
  if (node.level == Level::kRoot) {
    FormatDateTime(static_cast<double>(node.start), "%Y", out);
    out += "..";
    FormatDateTime(static_cast<double>(node.end - 1), "%Y", out);
    return out;
  }
  FormatDateTime(static_cast<double>(node.start), kFormats[static_cast<int>(node.level)], out);
  return out;
}

double CalendarDecomposition::ThresholdBranching() const {
  return leaf_level_ == Level::kMinute || leaf_level_ == Level::kSecond ? 60.0 : 31.0;
}

}  // namespace deniable
