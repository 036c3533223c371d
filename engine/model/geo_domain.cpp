// SPDX-License-Identifier: Apache-2.0
#include "engine/model/geo_domain.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

#include "engine/histogram/column_histograms.h"
#include "engine/model/geo_regions.h"
#include "engine/model/numeric_bins.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

std::string Short(double value) {
  std::ostringstream out;
  out.precision(3);
  out << value;
  return out.str();
}

}  // namespace

GeoBox GeoBoxOf(const ColumnSchema& latitude, const ColumnSchema& longitude, bool* declared) {
  GeoBox box;
  const bool lat_declared = latitude.public_min && latitude.public_max;
  const bool lon_declared = longitude.public_min && longitude.public_max;
  if (lat_declared) {
    box.lat_lo = std::min(*latitude.public_min, *latitude.public_max);
    box.lat_hi = std::max(*latitude.public_min, *latitude.public_max);
  }
  if (lon_declared) {
    box.lon_lo = std::min(*longitude.public_min, *longitude.public_max);
    box.lon_hi = std::max(*longitude.public_min, *longitude.public_max);
  }
  if (declared != nullptr) *declared = lat_declared && lon_declared;
  return box;
}

Result<ColumnDomain> BuildGeoDomain(const RawTable& table, const Schema& schema,
                                    const GeoPair& pair, double epsilon,
                                    const DomainOptions& options, PrivacyAccountant& accountant,
                                    Rng& rng, Progress& progress) {
  const ColumnSchema& lat = schema.columns[pair.latitude];
  const ColumnSchema& lon = schema.columns[pair.longitude];
  const std::string name = lat.name + " + " + lon.name;
  ColumnDomain domain;
  domain.name = lat.name;
  domain.type = lat.type;
  domain.categorical = false;
  bool declared = false;
  const GeoBox box = GeoBoxOf(lat, lon, &declared);
  const double resolution = GeoResolutionOf(LatticeStepOf(lat), LatticeStepOf(lon), box);
  auto decomposition = GeoDecomposition::Create(resolution, box);
  if (!decomposition) return decomposition.error().WithContext("geo pair " + name);
  const int max_regions = lat.bins > 0 ? lat.bins : options.default_bins;
  GeoCells cells;
  std::string provenance;
  if (!(epsilon > 0)) {
    if (!declared) {
      return FailedPrecondition(
          "geo pair '" + name + "' has no public box and no domain budget: declare public "
          "bounds on both columns (schema \"public\": {\"min\": ..., \"max\": ...}) or give the "
          "domains a share of ε");
    }
    cells = UniformGeoCells(*decomposition, max_regions);
    domain.has_missing = true;
    domain.categories_source = DomainSource::kPublic;
    provenance = "box declared public in the schema; " + std::to_string(cells.regions()) +
                 " equal quadtree squares (no domain budget); a missing code always present";
  } else {
    const std::vector<double> lats = NumericRowValues(table.columns[pair.latitude], lat);
    const std::vector<double> lons = NumericRowValues(table.columns[pair.longitude], lon);
    std::vector<GeoPoint> points;
    points.reserve(lats.size());
    std::int64_t missing = 0;
    for (std::size_t r = 0; r < lats.size(); ++r) {
      if (std::isnan(lats[r]) || std::isnan(lons[r])) {
        ++missing;
      } else {
        points.push_back(GeoPoint{lats[r], lons[r]});
      }
    }
    GeoHistogramOptions spec;
    spec.resolution_degrees = resolution;
    spec.box = box;
    spec.histogram.adaptive.epsilon = ShareOf(epsilon, kAdaptiveShare) / 2;
    spec.histogram.counts_epsilon = epsilon - 2 * spec.histogram.adaptive.epsilon;
    // The marginals mode: a Gaussian second pass at the ρ the Laplace one would cost folded
    // (domains.h DomainOptions::gaussian_counts).
    if (options.gaussian_counts) UseGaussianCounts(spec.histogram);
    const CountNoise noise = CountNoiseOf(spec.histogram);
    auto learnt = LearnGeoHistogram(points, spec, accountant, "cells of " + name, "all", rng,
                                    progress);
    if (!learnt) return learnt.error();
    NoisyGeoCells noisy;
    noisy.nodes = learnt->leaves;
    for (const GeoCell& cell : learnt->cells) noisy.counts.push_back(cell.noisy_count);
    noisy.count_noise_scale = noise.scale;
    noisy.gaussian = noise.gaussian;
    noisy.cut_empty = !declared;
    GeoBinning binning;
    binning.max_regions = max_regions;
    auto made = GeoCellsFromNoisy(learnt->decomposition, noisy, binning);
    if (!made) return made.error().WithContext("geo pair " + name);
    cells = std::move(made.value());
    // The missing marker: a cell of the same second pass (parallel composition, see the header).
    auto noisy_missing = NoisyExtraCell(spec.histogram, static_cast<std::uint64_t>(missing), rng);
    if (!noisy_missing) return noisy_missing.error();
    domain.has_missing = static_cast<double>(*noisy_missing) >=
                         NoiseThreshold(noise.gaussian, noise.scale, kGeoMissingThreshold);
    domain.categories_source = declared ? DomainSource::kPublic : DomainSource::kDp;
    provenance = "private quadtree (improved adaptive histogram, Thm. 3: ε = " +
                 Short(2 * spec.histogram.adaptive.epsilon) + " for " +
                 std::to_string(cells.cells()) + " cells, " +
                 (noise.gaussian ? "discrete Gaussian σ = " + Short(noise.scale)
                                 : "ε = " + Short(spec.histogram.counts_epsilon)) +
                 " for their counts) on a lattice of " +
                 Short(resolution) + "° " +
                 (declared ? "inside the public box" : "over the globe, empty regions cut") +
                 "; " + std::to_string(cells.regions()) +
                 " regions (runs of cells in Morton order); missing code from the same counts";
  }
  cells.longitude = lon.name;
  if (Status s = domain.SetGeo(std::move(cells)); !s) {
    return s.error().WithContext("geo pair " + name);
  }
  domain.provenance = std::move(provenance);
  return domain;
}

}  // namespace deniable
