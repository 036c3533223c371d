// SPDX-License-Identifier: Apache-2.0
// The data split (D_T, D_P, D_S) and the learning of the plausible-deniability generative
// model (PD paper §3): structure on D_T (CFS, PrivBayes's, or none for the marginals
// baseline), parameters on D_P (noisy counts + Dirichlet posterior sample).
//
// Typical use (the CLI and GUI go through engine/pipeline, which does this):
//   auto split = SplitRows(data.rows, options, accountant, rng);
//   auto model = LearnDeniableModel(data, *split, options, buckets, accountant, rng, progress);
//   auto release = SynthesizeDeniable(data, *split, *model, options, accountant, rng, progress);
//
// Privacy: see each step's header (cfs_structure.h, parameter_learning.h, privbayes.h). The
// split itself touches no data values: each row index goes to D_T, D_P or D_S independently
// with the public fractions (a Poisson split, so Theorem 4's amplification applies to each
// part), and the accountant gets the partitions "D_T", "D_P", "D_S" under "all". The model's
// (ε, δ) is the max over D_T and D_P (parallel composition, §3.5).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/deniable/deniable_options.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/model/bayes_net.h"
#include "engine/model/domain.h"
#include "engine/model/encoded_table.h"

namespace deniable {

// Row indices (into the input / EncodedTable) of each part, increasing. SENSITIVE: which rows
// are seeds is never written to a release (only to an owner's audit directory).
struct DataSplit {
  std::vector<std::uint32_t> structure_rows;  // D_T
  std::vector<std::uint32_t> parameter_rows;  // D_P
  std::vector<std::uint32_t> seed_rows;       // D_S
};

// Splits `rows` row indices with options.split_* and declares the partitions in `accountant`.
Result<DataSplit> SplitRows(std::size_t rows, const DeniableOptions& options,
                            PrivacyAccountant& accountant, Rng& rng);

// Public bkt() maps (eq. 7) per attribute (DeniableOptions::bucket_count). bucket_count < 2:
// all empty (identity). Otherwise an attribute with more than bucket_count codes (for
// BucketMapsForDomains: a NUMERIC column with more than bucket_count bins; categorical codes
// are never merged) gets adjacent codes merged into bucket_count groups (CoarseBinBuckets),
// with a numeric column's missing code kept in a bucket of its own.
std::vector<std::vector<std::uint32_t>> DefaultBucketMaps(
    const std::vector<std::uint32_t>& cardinalities, std::uint32_t bucket_count);
std::vector<std::vector<std::uint32_t>> BucketMapsForDomains(
    const std::vector<ColumnDomain>& domains, std::uint32_t bucket_count);

struct DeniableModel {
  DeniableStructure structure = DeniableStructure::kCfs;
  // Nodes in σ order with their (already private) tables, quantised exactly as the
  // synthesizer samples them (seed_model.h). This is what the description file holds.
  BayesNet network;
  std::vector<std::uint32_t> cardinalities;
  OmegaRange omega;
  // DP facts of the structure learning (CFS only), for reports.
  std::int64_t noisy_structure_rows = 0;
  double entropy_sensitivity = 0;
  std::size_t entropy_queries = 0;
  double epsilon_per_entropy = 0;

  std::vector<int> Order() const;  // σ
  // σ, ω, structure method, parent sets (no tables): for summaries and the GUI's graph.
  nlohmann::json ToJson(const std::vector<std::string>* names = nullptr) const;
};

// Learns the model. `bucket_maps` per attribute (empty = DefaultBucketMaps). Spends
// options.model_epsilon on D_T (structure; kMarginals spends nothing there) and on D_P
// (parameters). `names` (optional) label ledger entries.
Result<DeniableModel> LearnDeniableModel(const EncodedTable& data, const DataSplit& split,
                                         const DeniableOptions& options,
                                         std::vector<std::vector<std::uint32_t>> bucket_maps,
                                         PrivacyAccountant& accountant, Rng& rng,
                                         Progress& progress,
                                         const std::vector<std::string>* names = nullptr);

}  // namespace deniable
