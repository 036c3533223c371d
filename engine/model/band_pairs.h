// SPDX-License-Identifier: Apache-2.0
// A numeric column and its band, kept consistent inside a bin (issue 9: deterministic pairs).
//
// A band is a categorical function of a numeric column that steps at thresholds: COMPAS'
// age_cat ("Less than 25", "25 - 45", "Greater than 45") of age, a score's text band of the
// score, an income bracket of the income. Every mode models the numeric column by bins, and a
// bin that straddles a threshold (age 20–29 holds both "Less than 25" and "25 - 45") is, in the
// model, a mix of two labels. Decoding then drew each row's value anywhere in the bin whatever
// its label, so a row labelled "Less than 25" came out aged 27 as often as 22: on COMPAS at
// ε = 1, 3–8% of the rows (the straddling bins of 25 and 45) contradicted the band, in every mode
// (age → age_cat 0.90–0.95 consistent).
//
// Coupling (post-processing of the sampled codes; nothing else is read): for a pair (A numeric,
// B band) the labels of B are ordered by their mean bin of A in the sample. Inside bin i of A,
// the rows' labels split the bin's within-bin distribution into consecutive quantile slices, in
// label order, each as wide as the label's share of the bin's rows: a row with label k draws
// its within-bin quantile uniformly in [F_i(<k), F_i(<=k)) and its value at that quantile of the
// bin's leaf distribution (NumericDecoder::DrawAt). So:
//   * every code is unchanged, hence every marginal at the model's resolution (1-way, 2-way,
//     anything a metric computes on bins) is exactly what the model sampled;
//   * within a bin the values' distribution is the same mixture of quantile slices, i.e. the
//     leaf distribution (up to the stratification of its rows), so A's fine 1-way is unchanged;
//   * within a straddling bin the lower labels take the lower values: if B steps at t inside the
//     bin, the model's label shares put the synthetic step at the quantile of the real one.
// What changes is only the order of values against labels inside a bin; for a pair that is a
// step function in the data that is the truth, for a pair that only nearly is, the coupling makes
// it one inside each bin (its cost, bounded by the bin's width).
//
// Which pairs (rule from the sample, no table-specific choice): A numeric (not geo, not random
// strings) with >= 2 bins; B categorical with 2..kMaxBandLabels labels among its rows with a
// known A and B; the sample's joint n(i, k) (i a bin of A, k a label of B) must be
//   * monotone: Goodman–Kruskal γ between bin and label order >= kBandMinGamma (0.9; a step
//     function has γ = 1, a model's noise lowers it a little; monotone-but-loose associations
//     such as Adult's hours-per-week → income have γ ≈ 0.3–0.6), and
//   * predictive: Goodman–Kruskal λ(B | bin) >= kBandMinLambda (0.5: B is mostly a function of
//     the bin; the straddling bins hold the rest).
// Each numeric column follows at most one band (the largest λ, then γ); a band may be followed
// by several numeric columns (COMPAS' age and dob, the latter descending).
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/random.h"
#include "engine/model/domain.h"
#include "engine/model/encoded_table.h"

namespace deniable {

inline constexpr double kBandMinGamma = 0.9;
inline constexpr double kBandMinLambda = 0.5;
inline constexpr std::uint32_t kMaxBandLabels = 64;

struct BandPair {
  int numeric = 0;  // attribute A
  int band = 0;     // attribute B
  double gamma = 0;   // Goodman–Kruskal γ(bin of A, rank of B) in the sample
  double lambda = 0;  // Goodman–Kruskal λ(B | bin of A) in the sample
  std::vector<std::uint32_t> rank;  // per code of B: its rank in the label order (missing: none)
};

// The band pairs of a sampled table (`domains` per attribute). Deterministic.
std::vector<BandPair> FindBandPairs(const EncodedTable& synthetic,
                                    const std::vector<ColumnDomain>& domains);

// Per row of `synthetic`, the within-bin quantile in [0, 1) that the coupling gives A's value,
// or a negative number where the row is not coupled (A or B missing): draw that row as usual.
std::vector<double> BandQuantiles(const BandPair& pair, const EncodedTable& synthetic,
                                  const std::vector<ColumnDomain>& domains, Rng& rng);

// Across the buckets of a coarsened parent (sampled codes of a BayesNet, before decoding). In
// the correlated mode a numeric column A is a parent only through a few buckets of its bins, so
// a band B under A sees only A's bucket: a bucket [18, 30) of ages holds "Less than 25" and
// "25 - 45" in the model's shares, and a row aged 19 drew "25 - 45" as often as one aged 29
// (COMPAS at ε = 1: age → age_cat 0.77–0.98 consistent over 6 seeds). For each band pair of the
// sample (FindBandPairs: B already nearly a step function of A's bins in the sample) where no
// node reads A at its own codes: within each group of rows sharing A's parent configuration (as
// A's table sees it) and A's bucket under every bucketing its children use, the group's A codes
// (a multiset the model drew) are handed out in ascending order to its rows sorted by B's rank
// (ties in random order). In the model, A's own code is independent of every other attribute
// given that group (its parents' configuration enters A's table only, its children see its
// bucket only), so every table of the network sees the same counts as before: A's table the
// same multiset of A per parent configuration, every child of A the same buckets, every other
// node unchanged; what changes is only which row of a group holds which of its A codes. B need
// not be A's child (a network age_cat → dob → age couples age within its dob buckets).
// Rows with A or B missing are not moved. Post-processing of the sample: no privacy cost.
// Returns the pairs it coupled.
struct BayesNet;
std::vector<BandPair> CoupleBandsAcrossBuckets(const BayesNet& network,
                                               const std::vector<ColumnDomain>& domains,
                                               EncodedTable& synthetic, Rng& rng);

}  // namespace deniable
