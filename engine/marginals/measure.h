// SPDX-License-Identifier: Apache-2.0
// The private steps shared by MST and AIM: counting a marginal of the encoded data, measuring it
// with discrete Gaussian noise, and choosing a candidate with the exponential mechanism — each
// recorded in the ledger as a zCDP entry — and MST's domain compression.
//
// Privacy guarantee
//   Neighbouring: add/remove one record. A marginal (histogram of a clique) changes by one in
//   one cell: ℓ2 and ℓ1 sensitivity 1.
//   MeasureMarginal: discrete Gaussian N_Z(0, σ²) per cell with σ² = 1/(2ρ) rounded up
//   (dp/discrete_gaussian_mechanism.h): ρ-zCDP (CKS 2020 Thm 4).
//   SelectCandidate: exponential mechanism on utilities of sensitivity `sensitivity`
//   (dp/exponential_mechanism.h): ε-DP and ε-bounded-range, hence ε²/8-zCDP (Cesar & Rogers
//   2021; AIM §3 and MST use the same accounting).
//   Proof note: marginals/marginals.md.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/marginals/estimation.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// Counts of every cell of `clique` in `data` (row-major, last attribute fastest).
std::vector<double> CountMarginal(const EncodedTable& data, const Clique& clique);

// counts + discrete Gaussian noise at ρ = rho (ℓ2 sensitivity 1), spent in `accountant` under
// `label` as one zCDP entry. The measurement's sigma is sqrt(σ²) of the mechanism.
Result<Measurement> MeasureMarginal(const EncodedTable& data, const Clique& clique, double rho,
                                    const std::string& label, PrivacyAccountant& accountant,
                                    Rng& rng);

// The exponential mechanism with privacy parameter `epsilon` over `utilities` (sensitivity
// `sensitivity`), spent as ρ = ε²/8 under `label`.
Result<std::size_t> SelectCandidate(std::span<const double> utilities, double epsilon,
                                    double sensitivity, const std::string& label,
                                    PrivacyAccountant& accountant, Rng& rng);

// MST's domain compression (private-pgm mst.py compress_domain): per attribute, the values
// whose noisy 1-way count is >= 3σ are kept (in order); with `merge_rare` the others merge into
// one last code (when there are any). The 1-way measurement is re-expressed on the new domain:
// the merged cell's noisy count is the sum of the merged cells scaled by 1/sqrt(m + 1) with
// query weight 1/sqrt(m + 1) (m merged values), as in mst.py.
// `missing_codes[a]` (>= 0): a code the domains added only because they could not know whether
// the column has missing values; when its noisy count is below 3σ it is dropped: never
// produced, and its rows are counted with the merged code (or the kept code of largest noisy
// count; for a dropped "Other", the largest that is not the missing code). `other_codes[a]` (>= 0): likewise the domain's "Other" code (values outside the
// domain), which holds nothing when the domains found every value — so a column whose values
// were all kept does not write "Other" from noise. Without `merge_rare` only these drops happen
// (AIM). All post-processing of the noisy 1-way measurements: no privacy cost.
struct DomainCompression {
  // Per attribute: original code -> compressed code.
  std::vector<std::vector<std::uint32_t>> forward;
  // Per attribute: compressed code -> the original codes it stands for.
  std::vector<std::vector<std::vector<std::uint32_t>>> backward;
  std::vector<std::uint32_t> sizes;  // compressed domain sizes

  static DomainCompression Identity(const std::vector<std::uint32_t>& sizes);
  EncodedTable Compress(const EncodedTable& data) const;
  // A merged code becomes a uniformly random one of its original codes.
  EncodedTable Expand(const EncodedTable& compressed, Rng& rng) const;
};
DomainCompression CompressDomains(std::vector<Measurement>& one_way,
                                  const std::vector<std::uint32_t>& sizes,
                                  const std::vector<int>& missing_codes, bool merge_rare,
                                  const std::vector<int>& other_codes = {});

}  // namespace deniable
