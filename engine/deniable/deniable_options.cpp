// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/deniable_options.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace deniable {
namespace {

std::string Show(double value) {
  std::ostringstream out;
  out.precision(12);
  out << value;
  return out.str();
}

Error Bad(const std::string& what, const std::string& value) {
  return InvalidArgument(what + " (got " + value + ")");
}

bool InOpenUnit(double x) { return std::isfinite(x) && x > 0 && x < 1; }

}  // namespace

const char* DeniableStructureName(DeniableStructure structure) {
  switch (structure) {
    case DeniableStructure::kCfs:
      return "cfs";
    case DeniableStructure::kPrivBayes:
      return "privbayes";
    case DeniableStructure::kMarginals:
      return "marginals";
  }
  return "unknown";
}

Status DeniableOptions::Validate() const {
  if (k < 1) return Bad("k must be an integer >= 1", std::to_string(k));
  if (!(std::isfinite(seed_count_epsilon) && seed_count_epsilon > 0)) {
    return Bad("seed_count_epsilon must be finite and > 0", Show(seed_count_epsilon));
  }
  if (!(seed_count_delta > 0 && seed_count_delta < 1e-3)) {
    return Bad("seed_count_delta must be in (0, 0.001)", Show(seed_count_delta));
  }
  if (!(std::isfinite(gamma) && gamma > 1)) {
    return Bad("gamma must be finite and > 1", Show(gamma));
  }
  const bool omega_auto = omega_min == 0 && omega_max == 0;
  if (!omega_auto) {
    if (omega_min < 0) return Bad("omega_min must be >= 0", std::to_string(omega_min));
    if (omega_max < omega_min) {
      return InvalidArgument("omega_max must be >= omega_min (got omega_min " +
                             std::to_string(omega_min) + ", omega_max " +
                             std::to_string(omega_max) + ")");
    }
    if (omega_max < 1) return Bad("omega_max must be >= 1", std::to_string(omega_max));
  }
  if (!deterministic_test) {
    if (!(std::isfinite(epsilon0) && epsilon0 > 0)) {
      return Bad("epsilon0 must be finite and positive", Show(epsilon0));
    }
    if (!InOpenUnit(record_delta)) {
      return Bad("record_delta must be in (0, 1)", Show(record_delta));
    }
    if (!(fail_floor < 0 || InOpenUnit(fail_floor))) {
      return Bad("fail_floor must be in (0, 1), or negative for automatic", Show(fail_floor));
    }
  }
  if (!(std::isfinite(model_epsilon) && model_epsilon > 0)) {
    return Bad("model_epsilon must be finite and positive", Show(model_epsilon));
  }
  if (!InOpenUnit(structure_delta)) {
    return Bad("structure_delta must be in (0, 1)", Show(structure_delta));
  }
  if (!(row_count_fraction == 0 || InOpenUnit(row_count_fraction))) {
    return Bad("row_count_fraction must be 0 (automatic) or in (0, 1)", Show(row_count_fraction));
  }
  if (maxcost < 1) return Bad("maxcost must be >= 1", std::to_string(maxcost));
  if (!(std::isfinite(usefulness_theta) && usefulness_theta >= 0)) {
    return Bad("usefulness_theta must be finite and >= 0", Show(usefulness_theta));
  }
  if (bucket_count == 1) {
    return Bad("bucket_count must be 0 (no merging) or >= 2", std::to_string(bucket_count));
  }
  if (!(std::isfinite(dirichlet_alpha) && dirichlet_alpha >= 0)) {
    return Bad("dirichlet_alpha must be finite and >= 0 (0 = automatic)", Show(dirichlet_alpha));
  }
  if (structure == DeniableStructure::kPrivBayes &&
      (privbayes_degree < 1 || privbayes_degree > 8)) {
    return Bad("privbayes_degree must be in 1..8", std::to_string(privbayes_degree));
  }
  for (const auto& [name, value] :
       {std::pair<const char*, double>{"split_structure", split_structure},
        {"split_parameters", split_parameters},
        {"split_seeds", split_seeds}}) {
    if (!InOpenUnit(value)) return Bad(std::string(name) + " must be in (0, 1)", Show(value));
  }
  const double sum = split_structure + split_parameters + split_seeds;
  if (std::abs(sum - 1.0) > 1e-9) {
    return InvalidArgument("split fractions must sum to 1 (got " + Show(split_structure) + " + " +
                           Show(split_parameters) + " + " + Show(split_seeds) + " = " + Show(sum) +
                           ")");
  }
  if (max_candidates != 0 && records != 0 && max_candidates < records) {
    return InvalidArgument("max_candidates must be >= records (got max_candidates " +
                           std::to_string(max_candidates) + ", records " + std::to_string(records) +
                           ")");
  }
  return OkStatus();
}

Result<OmegaRange> ResolveOmega(const DeniableOptions& options, int attributes) {
  if (attributes < 1) {
    return FailedPrecondition(
        "the data has no modelled attribute (m = " + std::to_string(attributes) + ")");
  }
  if (options.omega_min == 0 && options.omega_max == 0) {
    // The paper's ω ∈R [5, 11] of m = 11 attributes (§6.1), scaled to m.
    const int low = static_cast<int>(std::lround(5.0 * attributes / 11.0));
    return OmegaRange{std::clamp(low, 1, attributes), attributes};
  }
  if (options.omega_max > attributes) {
    return InvalidArgument(
        "omega_max must be <= the number of modelled attributes m = " + std::to_string(attributes) +
        " (got " + std::to_string(options.omega_max) + ")");
  }
  return OmegaRange{options.omega_min, options.omega_max};
}

namespace {

bool ParseIntegerText(const std::string& text, int& value) {
  if (text.empty() || text.size() > 9) return false;
  value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  return true;
}

}  // namespace

Status ParseOmegaSpec(const std::string& text, DeniableOptions& options) {
  const std::size_t dash = text.find('-');
  int low = 0, high = 0;
  const bool ok = dash == std::string::npos
                      ? ParseIntegerText(text, low) && ParseIntegerText(text, high)
                      : ParseIntegerText(text.substr(0, dash), low) &&
                            ParseIntegerText(text.substr(dash + 1), high);
  if (!ok || low > high || high < 1) {
    return InvalidArgument("omega must be a count like 9 or a range like 5-11 (got '" + text +
                           "')");
  }
  options.omega_min = low;
  options.omega_max = high;
  return OkStatus();
}

Status ParseSplitSpec(const std::string& text, DeniableOptions& options) {
  double parts[3];
  std::size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t comma = text.find(',', start);
    if ((i < 2) == (comma == std::string::npos)) {
      return InvalidArgument("split must be three fractions like 0.21,0.21,0.58 (got '" + text +
                             "')");
    }
    const std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    char* end = nullptr;
    parts[i] = std::strtod(part.c_str(), &end);
    if (part.empty() || end != part.c_str() + part.size()) {
      return InvalidArgument("split must be three fractions like 0.21,0.21,0.58 (got '" + text +
                             "')");
    }
    start = comma + 1;
  }
  DeniableOptions candidate = options;
  candidate.split_structure = parts[0];
  candidate.split_parameters = parts[1];
  candidate.split_seeds = parts[2];
  if (Status s = candidate.Validate(); !s) return s;
  options = candidate;
  return OkStatus();
}

std::uint64_t ResolveCandidateCap(const DeniableOptions& options, std::size_t records) {
  if (options.max_candidates != 0) return options.max_candidates;
  return std::max<std::uint64_t>(20 * static_cast<std::uint64_t>(records), 100000);
}

}  // namespace deniable
