// SPDX-License-Identifier: Apache-2.0
// The calendar decomposition of date-times: root → years → months → days → hours → minutes →
// seconds, stopping at the caller's resolution (86400 s: days are leaves; 3600 s: hours; 60 s:
// minutes; 1 s: seconds). Values are seconds since 1970-01-01 00:00:00 of the naive timestamp
// read as UTC (as engine/schema/datetime.h), floored onto the resolution grid and clamped into
// the public range of whole years [first_year, end_year) (the project's coarse range is
// 1900-01-01 .. 2100-01-01). Proleptic Gregorian calendar; no leap seconds, no time zones, so
// every grid point is a valid instant and Draw() returns one.
//  * Order: time; a node is the interval [start, end) of one calendar unit, its children the
//    sub-units in time order.
//  * Branching below the root: 12, 28-31, 24, 60, 60 (ThresholdBranching: the largest present).
// For binary splits over time use NumericDecomposition with LatticeKind::kFloorGrid (grid_step
// = resolution) and bounds instead. Proof note: histogram/decompositions.md §2.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

inline constexpr std::int64_t kSecondsPerDay = 86400;

class CalendarDecomposition {
 public:
  using Value = std::int64_t;  // seconds, a multiple of the resolution
  enum class Level : std::uint8_t { kRoot, kYear, kMonth, kDay, kHour, kMinute, kSecond };
  struct Node {
    std::int64_t start = 0;  // first second of the unit
    std::int64_t end = 0;    // first second after it
    Level level = Level::kRoot;
  };

  // resolution_seconds in {1, 60, 3600, 86400}; first_year < end_year, both in [1, 9999].
  static Result<CalendarDecomposition> Create(std::int64_t resolution_seconds,
                                              std::int64_t first_year = 1900,
                                              std::int64_t end_year = 2100);

  // Seconds floored onto the grid and clamped into the root (finite input; NaN asserted).
  Value ToValue(double seconds) const;
  Result<std::vector<Value>> ToValues(std::span<const double> seconds) const;
  std::int64_t resolution() const { return resolution_; }

  Node Root() const { return root_; }
  std::uint32_t Branching(const Node& node) const;
  Node Child(const Node& node, std::uint32_t i) const;
  std::uint32_t ChildOf(const Node& node, const Value& value) const;
  bool Contains(const Node& node, const Value& value) const {
    return value >= node.start && value < node.end;
  }
  bool Less(const Value& a, const Value& b) const { return a < b; }
  Value Draw(const Node& node, Rng& rng) const;  // a uniform grid instant of the unit
  std::string Label(const Node& node) const;     // "2017", "2017-03", "2017-03-05 14:07"
  double ThresholdBranching() const;

 private:
  CalendarDecomposition() = default;
  std::int64_t resolution_ = 1;
  std::int64_t first_year_ = 1900;
  Level leaf_level_ = Level::kSecond;
  Node root_;
};

}  // namespace deniable
