// SPDX-License-Identifier: Apache-2.0
#include "engine/model/domain.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "engine/model/geo_regions.h"
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

const char* UnknownValuesName(UnknownValues unknown) {
  switch (unknown) {
    case UnknownValues::kOther: return "other";
    case UnknownValues::kNearestPrefix: return "nearest-prefix";
    case UnknownValues::kNearestValue: return "nearest-value";
  }
  return "other";
}

namespace {

// hi for the given edges and step (see domain.h).
double HighestValue(const std::vector<double>& edges, double step) {
  return step > 0 ? edges.back() - step : edges.back();
}

bool StrictlyIncreasing(const std::vector<double>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) return false;
    if (i > 0 && !(values[i] > values[i - 1])) return false;
  }
  return true;
}

}  // namespace

void ColumnDomain::SetEqualWidth(double lo_value, double hi_value, int bin_count,
                                 double lattice_step) {
  categorical = false;
  step = lattice_step > 0 ? lattice_step : 0;
  bins = std::max(bin_count, 1);
  const double top = step > 0 ? hi_value + step : hi_value;
  edges.assign(static_cast<std::size_t>(bins) + 1, lo_value);
  if (top > lo_value) {
    for (int i = 1; i < bins; ++i) edges[i] = lo_value + (top - lo_value) * i / bins;
    edges[bins] = top;
  } else {
    // A single value: bins of one ulp each (a continuous domain keeps its bin count, e.g. an
    // imported description's), every one decoding to the value.
    for (int i = 1; i <= bins; ++i) edges[i] = std::nextafter(edges[i - 1], HUGE_VAL);
  }
  if (step > 0) {
    // Edges on lattice points (each bin keeps exactly the points it held), without empty bins.
    std::vector<double> snapped;
    for (double edge : edges) {
      const double point = PointValue(FirstPointIndex(edge));
      if (snapped.empty() || point > snapped.back()) snapped.push_back(point);
    }
    if (snapped.size() >= 2) edges = std::move(snapped);
    bins = static_cast<int>(edges.size() - 1);
  }
  lo = edges.front();
  hi = HighestValue(edges, step);
  leaf_edges.clear();
  leaf_weights.clear();
}

Status ColumnDomain::SetBins(std::vector<double> bin_edges, double lattice_step) {
  if (!(lattice_step >= 0) || !std::isfinite(lattice_step)) {
    return InvalidArgument("the lattice step must be finite and >= 0");
  }
  if (bin_edges.size() < 2 || bin_edges.size() > 65'001) {
    return InvalidArgument("a numeric domain needs between 1 and 65,000 bins (got " +
                           std::to_string(bin_edges.size() > 0 ? bin_edges.size() - 1 : 0) + ")");
  }
  if (!StrictlyIncreasing(bin_edges)) {
    return InvalidArgument("bin edges must be finite and strictly increasing");
  }
  categorical = false;
  step = lattice_step;
  edges = std::move(bin_edges);
  bins = static_cast<int>(edges.size() - 1);
  lo = edges.front();
  hi = HighestValue(edges, step);
  leaf_edges.clear();
  leaf_weights.clear();
  return OkStatus();
}

Status ColumnDomain::SetLeaves(std::vector<double> edges_of_leaves, std::vector<double> weights) {
  if (edges_of_leaves.size() < 2 || weights.size() + 1 != edges_of_leaves.size()) {
    return InvalidArgument("leaves: expected one weight per leaf and leaves + 1 edges");
  }
  if (!StrictlyIncreasing(edges_of_leaves)) {
    return InvalidArgument("leaf edges must be finite and strictly increasing");
  }
  if (edges.empty() || edges_of_leaves.front() != edges.front() ||
      edges_of_leaves.back() != edges.back()) {
    return InvalidArgument("leaves must cover exactly the range of the bins");
  }
  for (double edge : edges) {
    if (!std::binary_search(edges_of_leaves.begin(), edges_of_leaves.end(), edge)) {
      return InvalidArgument("every bin edge must be a leaf edge");
    }
  }
  for (double w : weights) {
    if (!(w >= 0) || !std::isfinite(w)) {
      return InvalidArgument("leaf weights must be finite and >= 0");
    }
  }
  leaf_edges = std::move(edges_of_leaves);
  leaf_weights = std::move(weights);
  return OkStatus();
}

Status ColumnDomain::SetGeo(GeoCells cells) {
  if (std::string problem = ValidateGeoCells(cells); !problem.empty()) {
    return InvalidArgument("geo cells: " + problem);
  }
  categorical = false;
  bins = static_cast<int>(cells.regions());
  edges.clear();
  step = 0;
  lo = hi = 0;
  leaf_edges.clear();
  leaf_weights.clear();
  geo = std::move(cells);
  return OkStatus();
}

double ColumnDomain::FirstPointIndex(double left) const {
  const double x = left / step;
  const double nearest = std::round(x);
  if (std::fabs(x - nearest) <= 1e-9 * std::max(1.0, std::fabs(x))) return nearest;
  return std::ceil(x);
}

double ColumnDomain::PointsIn(double left, double right) const {
  if (step <= 0) return 0;
  return std::max(0.0, FirstPointIndex(right) - FirstPointIndex(left));
}

double ColumnDomain::FirstPointOf(std::uint32_t bin) const {
  return PointValue(FirstPointIndex(edges[bin]));
}

double ColumnDomain::LastPointOf(std::uint32_t bin) const {
  return PointValue(FirstPointIndex(edges[bin + 1]) - 1);
}

std::uint32_t ColumnDomain::BinOf(double value) const {
  if (bins <= 1 || edges.size() != static_cast<std::size_t>(bins) + 1) return 0;
  if (std::isnan(value)) return 0;
  const auto inner_begin = edges.begin() + 1;
  const auto inner_end = edges.begin() + bins;  // edges 1 .. bins-1
  std::size_t bin;
  if (step > 0) {
    // Compare lattice indices, so that a value read from text ("0.3") and an edge computed as
    // 3 · 0.1 agree.
    const double index = std::round(value / step);
    bin = static_cast<std::size_t>(
        std::upper_bound(inner_begin, inner_end, index,
                         [this](double v, double edge) { return v < FirstPointIndex(edge); }) -
        inner_begin);
  } else {
    bin = static_cast<std::size_t>(std::upper_bound(inner_begin, inner_end, value) - inner_begin);
  }
  return static_cast<std::uint32_t>(std::min<std::size_t>(bin, static_cast<std::size_t>(bins) - 1));
}

std::pair<std::size_t, std::size_t> ColumnDomain::LeavesOfBin(std::uint32_t bin) const {
  if (leaf_edges.empty()) return {0, 0};
  const auto first = std::lower_bound(leaf_edges.begin(), leaf_edges.end(), edges[bin]);
  const auto last = std::lower_bound(first, leaf_edges.end(), edges[bin + 1]);
  return {static_cast<std::size_t>(first - leaf_edges.begin()),
          static_cast<std::size_t>(last - leaf_edges.begin())};
}

std::string ColumnDomain::Validate() const {
  if (categorical) return "";
  if (is_geo()) {
    if (std::string problem = ValidateGeoCells(*geo); !problem.empty()) return problem;
    if (static_cast<std::size_t>(bins) != geo->regions()) return "bins must equal the regions";
    return "";
  }
  if (bins < 1 || edges.size() != static_cast<std::size_t>(bins) + 1) {
    return "expected bins + 1 edges";
  }
  if (!StrictlyIncreasing(edges)) return "bin edges must be finite and strictly increasing";
  if (!(step >= 0) || !std::isfinite(step)) return "the step must be finite and >= 0";
  if (lo != edges.front() || hi != HighestValue(edges, step)) {
    return "min/max do not match the bin edges";
  }
  if (step > 0 && std::max(std::fabs(edges.front()), std::fabs(edges.back())) / step >
                      kMaxExactInteger) {
    return "the lattice is too fine for the range (more than 2^53 steps)";
  }
  if (!leaf_edges.empty() || !leaf_weights.empty()) {
    ColumnDomain copy = *this;
    if (Status s = copy.SetLeaves(leaf_edges, leaf_weights); !s) return s.error().message;
  }
  return "";
}

namespace {

void AppendNumber(double value, const ColumnDomain& domain, const ColumnSchema* column,
                  std::string& out) {
  if (column != nullptr) {
    FormatNumericCell(value, *column, out);
    return;
  }
  if (domain.type == DataType::kInteger || domain.step == 1) {
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
  if (is_geo()) {
    GeoPoint first, last;
    if (!GeoRegionExtent(*geo, code, first, last)) return "(invalid code)";
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "lat %.6g–%.6g, lon %.6g–%.6g", first.lat, last.lat,
                  first.lon, last.lon);
    return buffer;
  }
  if (step > 0) {
    const double first = FirstPointOf(code), last = LastPointOf(code);
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
