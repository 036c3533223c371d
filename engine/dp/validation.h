// SPDX-License-Identifier: Apache-2.0
// Parameter checks shared by engine/dp; messages name the parameter and its value, e.g.
// "epsilon must be finite and positive (got -1)". Not API.
#pragma once

#include <charconv>
#include <cmath>
#include <string>

#include "engine/core/result.h"

namespace deniable::internal {

// The shortest text that reads back as the same double ("0.1", "1e-300", "nan", "inf").
inline std::string FormatDouble(double x) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

inline Status CheckPositiveFinite(double value, const std::string& name) {
  if (!(std::isfinite(value) && value > 0)) {
    return InvalidArgument(name + " must be finite and positive (got " + FormatDouble(value) +
                           ")");
  }
  return OkStatus();
}

// 0 < value < 1.
inline Status CheckOpenUnit(double value, const std::string& name) {
  if (!(value > 0 && value < 1)) {
    return InvalidArgument(name + " must be in (0, 1) (got " + FormatDouble(value) + ")");
  }
  return OkStatus();
}

}  // namespace deniable::internal
