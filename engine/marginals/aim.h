// SPDX-License-Identifier: Apache-2.0
// AIM (McKenna, Mullins, Sheldon, Vietri, "AIM: An Adaptive and Iterative Mechanism for
// Differentially Private Synthetic Data", VLDB 2022, Algorithm 2; private-pgm aim.py):
//   workload W = all 2- and 3-way marginals with at most `max_query_cells` cells (weights 1; a
//   target column's queries weighted `target_weight`); candidates = W's downward closure, each
//   scored Σ_{w∈W} c_w·|r ∩ w|;
//   σ = sqrt(T / (2·0.9·ρ)), ε = sqrt(8·0.1·ρ / T) with T = rounds; the 1-way marginals first;
//   each round: the candidates whose junction tree would stay within the size cap scaled by the
//   budget used so far (or are already inside the model), one chosen by the exponential
//   mechanism on  c_r·(‖M_r(D) − M̂_r‖₁ − sqrt(2/π)·σ·n_r)  (sensitivity max c_r), measured with
//   σ, the model re-estimated (warm start); σ halves and ε doubles when the new measurement
//   barely moved the estimate (‖M̂'_r − M̂_r‖₁ <= sqrt(2/π)·σ·n_r); when about one round of
//   budget remains, the last round spends all of it; then a final, longer estimation.
//
// Privacy guarantee
//   Neighbouring: add/remove one record. Guarantee: ρ-zCDP in total, every step a zCDP entry
//   in `accountant` (which must have SetZcdpDelta); the utility of a candidate has sensitivity
//   c_r (the data marginal moves by 1 in L1, the estimate is fixed). Proof note:
//   marginals/marginals.md §AIM.
//
// Speed (issue 10 wants AIM's accuracy 50× faster): the estimate is warm-started with a few
// iterations per round (`round_iterations`) of accelerated mirror descent (estimation.md §4),
// candidate answers and estimates are computed in
// parallel, and the default size cap is smaller than aim.py's 80 MB (bench/README.md).
#pragma once

#include "engine/core/progress.h"
#include "engine/marginals/marginals_model.h"

namespace deniable {

struct AimOptions {
  double rho = 0;                       // total zCDP budget, > 0
  // T; 0 = automatic (AutomaticAimRounds: 16 × attributes as aim.py, fewer when the noisy row
  // count says each round's measurement would drown in noise); raised to at least the attributes.
  int rounds = 0;
  // A DP row count (already paid for; public), for the automatic rounds; < 0: none (16 × d).
  double public_rows = -1;
  double max_model_mb = 0;              // cap on the junction tree's size; 0 = kDefaultAimModelMb
  std::size_t max_query_cells = 10000;  // workload queries larger than this are left out
  // Per attribute, the size the workload filter counts (empty: the domain sizes). The pipeline
  // leaves out a domain's "missing" code, so that a public 100-value column stays a 100-cell
  // query side as in aim.py (a public, data-independent choice).
  std::vector<std::uint32_t> workload_sizes;
  // Per attribute, the domain's "missing" code when the domains kept one without knowing the
  // data has missing values (-1 or empty: none); dropped when its noisy 1-way count is < 3σ.
  std::vector<int> missing_codes;
  // Per attribute, the domain's "Other" code (-1 or empty: none); dropped likewise.
  std::vector<int> other_codes;
  // Per attribute: its codes are a numeric column's bins (consistency.h: a bin that straddles
  // a band's step is left to decoding). Empty: none.
  std::vector<bool> ordered;
  // Per attribute (may be empty): noisy counts of its codes already released by an earlier
  // step (a numeric column's histogram second pass, ColumnDomain::bin_noisy_counts) and their
  // noise variances (0: not measured). Combined with the 1-way measurement by inverse variance
  // (post-processing: no privacy cost).
  std::vector<std::vector<double>> prior_counts;
  std::vector<std::vector<double>> prior_variances;
  int degree = 3;   // workload: all 2-way … degree-way marginals
  int target = -1;  // attribute whose queries get `target_weight` (-1: none)
  double target_weight = 3.0;
  // Estimation iterations, warm-started, per round and for the final estimate: at most
  // these, and fewer on large models so that iterations × model cells stays within the
  // budgets below (IterationsFor), at least the minimums.
  int round_iterations = 100;
  int iterations = 1500;
  bool fixed_iterations = false;   // true: exactly round_iterations / iterations, no budget
  // The estimator of every round and of the final model (estimation.h, estimation.md §4).
  // Accelerated: at the same 100 iterations a round its fits are ~10× closer to their minimum,
  // and AIM's selection and annealing read those fits. Measured on pgm-adult (20 seeds, ε = 1,
  // mean 2-way / 3-way TVD, CPU s): mirror descent 0.0415 / 0.0655 in 2.7 s, with 1,000
  // iterations a round 0.0406 / 0.0645 in 15 s; accelerated 0.0406 / 0.0647 in 3.6 s (50 a
  // round: 0.0410 / 0.0651 in 2.7 s; 200: 0.0408 / 0.0649 in 4.6 s). The whole utility suite
  // (15 tables, ε 0.3 / 1 / 3, 2 seeds) is level: 13 cells better and 9 worse by more than
  // 0.0005, none beyond the seeds' spread (docs/utility.md, stop 24); AIM anneals less often on
  // fits that are close to their minimum, so it runs more rounds: the suite took 250 s of run
  // time instead of 173 (187 s since the size filter's triangulation uses bitsets).
  EstimationMethod estimation = EstimationMethod::kAccelerated;
  int threads = 0;                 // 0 = all cores
  std::vector<std::string> names;  // for ledger labels (optional)
};

// aim.py uses 80 MB; ours is smaller so that rounds stay fast. Measured (2-way TVD, CPU s,
// seeds 1–2/1–3): pgm-adult 0.0430/0.0413/0.0418 at 2 MB and at 8 MB (its models stay near 14k
// cells); raw adult.csv 0.0372/0.0387 in 9.8/8.4 s at 2 MB, 0.0370/0.0387 in 16/9.5 s at 8 MB;
// flchain and mplsstops identical from 0.5 MB to 8 MB.
inline constexpr double kDefaultAimModelMb = 2.0;

// The automatic number of rounds T for d attributes, total zCDP budget ρ and a DP row count n̂
// (< 0: unknown). AIM (McKenna et al. 2022, §4) splits 0.9ρ into T equal selection-and-measure
// rounds, so each round's Gaussian noise is σ_T = √(T/(1.8ρ)), growing with √T; aim.py's
// T = 16d assumes rows enough that this noise stays small next to n̂. Here T is the largest
// value, within [d, 16d], with n̂/σ_T >= √(1.8·kAimRoundsSnr·d), i.e.
//     T = clamp(n̂²·ρ / (kAimRoundsSnr·d), d, 16d):
// on a small or wide table, fewer and more accurate measurements. Public facts only (n̂, ρ, d).
int AutomaticAimRounds(std::size_t attributes, double rho, double noisy_rows);
inline constexpr double kAimRoundsSnr = 128.0;
// Work budgets of the estimation, in model cells × iterations (one iteration is ~10 passes
// over the cells: belief propagation, the loss, the line search): a model of c cells gets
// clamp(budget / c, minimum, maximum) iterations. The budgets are public (model sizes only).
inline constexpr double kRoundCellIterations = 4e6;
inline constexpr double kFinalCellIterations = 6e7;
inline constexpr int kMinRoundIterations = 25;
inline constexpr int kMinFinalIterations = 250;
// The iterations a model of `cells` cells gets: `maximum` when fixed or small enough.
int IterationsFor(std::size_t cells, int maximum, int minimum, double budget, bool fixed);
// The 3-way (and higher) workload is dropped on tables so wide that its queries would exceed
// these (the true answers of all candidates are kept in memory: 8 bytes a cell).
inline constexpr std::size_t kMaxWorkloadCells = std::size_t{32} << 20;
inline constexpr std::size_t kMaxWorkloadQueries = 6000;

Result<MarginalsModel> RunAim(const EncodedTable& data, const AimOptions& options,
                              PrivacyAccountant& accountant, Rng& rng, Progress& progress);

}  // namespace deniable
