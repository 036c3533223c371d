// SPDX-License-Identifier: Apache-2.0
// MST (McKenna, Miklau, Sheldon, "Winning the NIST Contest: A scalable and general approach to
// differentially private synthetic data", JPC 2021, Algorithm 1; private-pgm mst.py):
//   1. ρ/3: every 1-way marginal with discrete Gaussian noise; compress rare values (measure.h);
//   2. ρ/3: a maximum spanning tree of the attribute pairs, edge by edge (Kruskal), each edge
//      chosen by the exponential mechanism on the L1 error of the current estimate (1-ways
//      only) against the true pair marginal (sensitivity 1), ε = sqrt(8·(ρ/3)/(d − 1)) each;
//   3. ρ/3: the 2-way marginals of the tree's d − 1 edges with discrete Gaussian noise;
//   4. Private-PGM estimation (estimation.h) of all measurements; sampling is separate.
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Guarantee: ρ-zCDP in total (every step is recorded in
//   `accountant` as zCDP entries; the accountant must have SetZcdpDelta). Proof note:
//   marginals/marginals.md §MST.
#pragma once

#include "engine/core/progress.h"
#include "engine/marginals/marginals_model.h"

namespace deniable {

struct MstOptions {
  double rho = 0;                  // total zCDP budget of the mechanism, > 0
  int iterations = 2000;           // mirror-descent iterations of the final estimate
  double tolerance = 1e-7;         // early stop (estimation.h)
  bool compress = true;            // MST's domain compression
  std::vector<int> missing_codes;  // as AimOptions::missing_codes
  std::vector<int> other_codes;    // as AimOptions::other_codes
  std::vector<bool> ordered;       // as AimOptions::ordered
  int threads = 0;                 // 0 = all cores
  std::vector<std::string> names;  // attribute names for ledger labels (optional)
};

Result<MarginalsModel> RunMst(const EncodedTable& data, const MstOptions& options,
                              PrivacyAccountant& accountant, Rng& rng, Progress& progress);

}  // namespace deniable
