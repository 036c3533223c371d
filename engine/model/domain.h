// SPDX-License-Identifier: Apache-2.0
// The domain of each modelled column: the finite set of codes a model works with, and how a
// code turns back into a value. Every domain records where its facts came from (provenance):
// declared public by the user, computed by an accounted DP mechanism, or imported from a
// description file. Never from the raw data directly.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/result.h"
#include "engine/histogram/geo_decomposition.h"
#include "engine/schema/schema.h"

namespace deniable {

enum class DomainSource {
  kPublic,    // the user declared it public in the schema
  kDp,        // computed by a DP mechanism recorded in the ledger
  kImported,  // read from a description file (its own provenance is carried along)
};
const char* DomainSourceName(DomainSource source);  // "public", "dp", "imported"

enum class UnknownValues { kOther, kNearestPrefix, kNearestValue };
const char* UnknownValuesName(UnknownValues unknown);  // "other", "nearest-prefix", ...

// A geo pair's domain (schema/geo_pairs.h; built by model/geo_regions.h), held by the latitude
// column's ColumnDomain; the longitude column has no domain of its own. The cells are the leaves
// of a quadtree over the public `box` on a lattice of `resolution` degrees
// (histogram/geo_decomposition.h), in Morton order: they partition the box. Code r is region r,
// the run of cells region_starts[r] .. region_starts[r+1] - 1; decoding draws one of its cells
// by weight (uniformly when they all weigh 0), then a uniform lattice point inside the cell, and
// writes its latitude and longitude into the two columns.
struct GeoCells {
  std::string longitude;                      // the longitude column's name
  double resolution = 0;                      // lattice step in degrees (> 0)
  GeoBox box;                                 // public: declared bounds or the globe
  std::vector<std::uint64_t> keys;            // per cell: Morton key of its first corner
  std::vector<std::uint32_t> levels;          // per cell: quadtree level (0 = the root)
  std::vector<double> weights;                // per cell: finite, >= 0
  std::vector<std::uint32_t> region_starts;   // regions + 1 increasing cell indices: 0 .. cells
  std::size_t cells() const { return keys.size(); }
  std::size_t regions() const { return region_starts.empty() ? 0 : region_starts.size() - 1; }
};

// Code layout of a column with cardinality C:
//   categorical: codes 0..K-1 are `categories`, then `other` (if has_other), then `missing`
//                (if has_missing);
//   numeric:     codes 0..bins-1 are ordered bins (values outside [lo, hi] are clamped into the
//                edge bins), then `missing` (if has_missing);
//   geo pair:    codes 0..bins-1 are the regions of `geo` (Morton order), then `missing` (if
//                has_missing: either coordinate missing). No edges, lo, hi or leaves.
//
// Numeric values live on a lattice of `step` (1 for Integer columns, 10^-d for a Float column
// written with d decimals, the format's resolution for DateTime columns in seconds) or, with
// step == 0, on the real line. Bin i covers [edges[i], edges[i+1]): on a lattice, the multiples
// of `step` in that interval (so lo = edges.front(), hi = edges.back() - step); on the real line
// the interval itself, the last bin closed (hi = edges.back()). Bins need not have equal widths:
// DP domain discovery (model/numeric_domain.h) places them by the private adaptive histogram so
// that spikes (capital-gain = 0) and long tails keep their shape.
//
// Within-bin detail (`leaf_edges`, `leaf_weights`; optional): a finer ordered partition of
// [edges.front(), edges.back()) whose edges include every bin edge; decoding a bin draws a leaf
// with probability proportional to its weight among the bin's leaves, then a value uniformly
// inside the leaf (a lattice point on a lattice). Without leaves, uniformly inside the bin.
// Two independent unbiased estimates of one count combined by inverse variance (the
// minimum-variance unbiased combination): used where a mode re-measures a count that a
// domain's histogram already released (ColumnDomain::bin_noisy_counts).
struct CountEstimate {
  double value = 0;
  double variance = 0;
};
inline CountEstimate CombineByInverseVariance(CountEstimate a, CountEstimate b) {
  const double variance = 1.0 / (1.0 / a.variance + 1.0 / b.variance);
  return {variance * (a.value / a.variance + b.value / b.variance), variance};
}

struct ColumnDomain {
  std::string name;
  DataType type = DataType::kString;
  bool categorical = true;

  std::vector<std::string> categories;  // categorical: value texts as written to the output
  bool has_other = false;               // a code for values outside `categories`
  // How a value outside `categories` is encoded (model/domains.h): as `other` (or missing when
  // there is no other code); as the category sharing its longest prefix (free text: rare
  // strings vanish into similar frequent ones); as the numerically nearest category (a
  // categorical Integer/Float/DateTime column, which must never write "Other").
  UnknownValues unknown = UnknownValues::kOther;
  std::string other_label = "Other";    // what the output shows for that code

  // Numeric. lo, hi and bins are derived from `edges` and `step`: set them with SetBins or
  // SetEqualWidth only.
  double lo = 0, hi = 0;     // smallest and largest value of the domain (datetime: seconds)
  int bins = 0;              // number of bins
  std::vector<double> edges; // bins + 1 increasing values
  double step = 0;           // lattice step (> 0) or 0 for real values
  std::vector<double> leaf_edges;    // empty, or leaves + 1 increasing values
  std::vector<double> leaf_weights;  // one per leaf, finite and >= 0
  // DataSynthesizer import only: the "non-categorical string" DataSynthesizer did not model;
  // bins are over string LENGTHS and decoding emits random letters (what it generates).
  bool random_strings = false;

  std::optional<GeoCells> geo;  // a geo pair (see GeoCells); set with SetGeo only

  bool has_missing = false;  // a code for missing values

  // A private histogram's second pass summed per bin (numeric domains from SetBinsFromLeaves;
  // empty otherwise): the noisy count of each bin and its noise variance, or a variance of 0
  // where the bin's count is not measured (an edge bin, into which values beyond the range are
  // clamped). A DP output already paid for: the marginals mode combines it with its own 1-way
  // measurement (aim.h AimOptions::prior_one_way). Not written to the description.
  std::vector<double> bin_noisy_counts;
  std::vector<double> bin_noise_variances;

  DomainSource categories_source = DomainSource::kPublic;  // or bounds, for numeric columns
  std::string provenance;  // human-readable, e.g. "DP partition selection (ε = 0.02, δ = 1e-9)"

  std::uint32_t value_codes() const {
    return categorical ? static_cast<std::uint32_t>(categories.size()) + (has_other ? 1u : 0u)
                       : static_cast<std::uint32_t>(bins);
  }
  std::uint32_t cardinality() const { return value_codes() + (has_missing ? 1u : 0u); }
  std::uint32_t other_code() const { return static_cast<std::uint32_t>(categories.size()); }
  std::uint32_t missing_code() const { return value_codes(); }
  bool is_missing_code(std::uint32_t code) const { return has_missing && code == missing_code(); }
  bool on_lattice() const { return step > 0; }
  bool is_geo() const { return geo.has_value(); }
  // The attribute's name for views: the column's name, "lat + long" for a geo pair.
  std::string AttributeName() const {
    return is_geo() ? name + " + " + geo->longitude : name;
  }

  // Equal-width bins over [lo, hi] (a lattice of `step`: over [lo, hi + step), so that every
  // lattice point falls in exactly one bin). Clears the leaves. bins >= 1, lo <= hi.
  void SetEqualWidth(double lo_value, double hi_value, int bin_count, double lattice_step);
  // Explicit bins; checks the layout (kInvalidArgument naming the problem) and clears leaves.
  Status SetBins(std::vector<double> bin_edges, double lattice_step);
  // Within-bin detail over the current bins (see above); checks the layout.
  Status SetLeaves(std::vector<double> edges_of_leaves, std::vector<double> weights);
  // A geo pair's cells and regions (model/geo_regions.h ValidateGeoCells checks them); sets
  // bins to the regions and clears the numeric layout.
  Status SetGeo(GeoCells cells);

  // Numeric: the bin a value falls in (clamped to [0, bins-1]; NaN gives 0).
  std::uint32_t BinOf(double value) const;
  double BinLeft(std::uint32_t bin) const { return edges[bin]; }
  double BinRight(std::uint32_t bin) const { return edges[bin + 1]; }
  // The leaves [first, last) that make up a bin ({0, 0} without leaves).
  std::pair<std::size_t, std::size_t> LeavesOfBin(std::uint32_t bin) const;

  // Lattice arithmetic (step > 0): the lattice points in [left, right) are
  // FirstPointIndex(left) .. FirstPointIndex(right) - 1, point k being k·step. Indices are
  // exact for |k| <= 2^53; an interval edge within 1e-9 of a lattice point counts as on it.
  double FirstPointIndex(double left) const;
  double PointValue(double index) const { return index * step; }
  // Number of lattice points in [left, right) (0 when none).
  double PointsIn(double left, double right) const;
  // First and last lattice point of a bin (first > last for a bin with none).
  double FirstPointOf(std::uint32_t bin) const;
  double LastPointOf(std::uint32_t bin) const;

  // Short label of a code for views and reports: the category, "17–19", "[0.5, 1.5)",
  // "lat 44.9–45.1, lon -93.4–-93.2" (a geo region: the extent of its weighted cells),
  // "(missing)".
  std::string CodeLabel(std::uint32_t code, const ColumnSchema* column = nullptr) const;

  // Structural checks of a numeric layout (edges, lo/hi/bins consistent, leaves aligned);
  // an empty string when valid. Used on descriptions read from files.
  std::string Validate() const;
};

}  // namespace deniable
