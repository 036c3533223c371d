// SPDX-License-Identifier: Apache-2.0
// A geo pair's domain (schema/geo_pairs.h), built by BuildDomains (model/domains.h):
//  * with a domain budget ε: the pair's points (rows where both coordinates parse) go into a
//    private adaptive histogram over a quadtree (histogram/column_histograms.h
//    LearnGeoHistogram, improved algorithm, Thm. 3: 2ε_a for the leaves, then ε_2 for their
//    noisy counts, ε_a = ε·kAdaptiveShare/2, ε_2 = ε − 2ε_a; neighbouring: add/remove one
//    record, which holds one point), inside the public box (the two columns' declared bounds,
//    else the globe) on the pair's lattice (GeoResolutionOf); the leaves become the cells,
//    weights and regions of model/geo_regions.h (post-processing). The missing marker (either
//    coordinate missing or unparsable) is one more cell of the same second pass: a record is
//    either missing or in exactly one leaf, so its noisy count (discrete Laplace, sensitivity 1)
//    composes in parallel with the leaves' counts and costs no extra ε. The code exists when
//    that count reaches kMissingThreshold noise scales, as for numeric columns.
//  * with no budget: both columns must declare public bounds; the box's quadtree nodes at a
//    fixed depth become the regions, uniform (UniformGeoCells), a missing code always present.
// Privacy guarantee (neighbouring: add/remove one record; a record holds one point or is
// missing for the pair): (2ε_a + ε_2)-DP = ε-DP for the domain, pure (δ = 0). Sensitivity 1 for
// every count (adaptive stage: Thm. 3 with its discount; second pass and missing count: one
// disjoint cell per record). Sampling: exact discrete Laplace (dp/geometric_mechanism.h) from the
// Rng passed in. Spends are recorded before any noise is drawn: the histogram's two entries
// ("cells of lat + long: adaptive partition", "...: leaf counts") on partition "all". Proofs:
// histogram/adaptive_histogram.md, histogram/decompositions.md §3; everything after the counts
// (model/geo_regions.h) is post-processing.
#pragma once

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/domains.h"
#include "engine/schema/geo_pairs.h"

namespace deniable {

// A missing code exists when the noisy missing count reaches this many noise scales (as for
// numeric columns: an absent one passes with probability ½e^-3 ≈ 2.5%).
inline constexpr double kGeoMissingThreshold = 3.0;

// The pair's public box: each axis from its column's declared bounds (both min and max), else
// [-90, 90] and [-180, 180]. `declared` tells whether both axes were declared.
GeoBox GeoBoxOf(const ColumnSchema& latitude, const ColumnSchema& longitude, bool* declared);

Result<ColumnDomain> BuildGeoDomain(const RawTable& table, const Schema& schema,
                                    const GeoPair& pair, double epsilon,
                                    const DomainOptions& options, PrivacyAccountant& accountant,
                                    Rng& rng, Progress& progress);

}  // namespace deniable
