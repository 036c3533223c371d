// SPDX-License-Identifier: Apache-2.0
// The statistics of an attack on a release (Giomi et al., "A Unified Framework for Quantifying
// Privacy Risk in Synthetic Data", PETS 2023, §3): an attack succeeds k times out of n on the
// training rows, its success rate gets a Wilson score interval, and the same attack on held-out
// control rows (never seen by the synthesizer) is the baseline. The risk is the share of the
// attacker's failures on the control rows that the release turns into successes:
//     risk = (r_train − r_control) / (1 − r_control)                      (Giomi et al. eq. 2)
// Its interval combines the two rates' intervals at their most unfavourable ends:
//     [ (lo_train − hi_control)/(1 − hi_control),  (hi_train − lo_control)/(1 − lo_control) ]
// (conservative: each end holds when both rate intervals hold, ≥ 1 − 2α by the union bound).
// Notes: engine/evaluate/README.md.
#pragma once

#include <cstdint>

namespace deniable {

struct Interval {
  double low = 0;
  double high = 0;
};

// z of a two-sided normal interval at this confidence (0.95 → 1.959963984540054).
double NormalQuantileTwoSided(double confidence);

// Wilson score interval (Wilson 1927) of a binomial proportion with `successes` of `trials`:
//   centre = (p̂ + z²/2n) / (1 + z²/n),  half = z/(1 + z²/n) · sqrt(p̂(1 − p̂)/n + z²/4n²).
// trials == 0 gives [0, 1].
Interval WilsonInterval(double successes, std::uint64_t trials, double confidence = 0.95);

struct RateEstimate {
  double rate = 0;       // successes / trials
  double successes = 0;  // may be fractional for a size-corrected control rate
  std::uint64_t trials = 0;
  Interval interval;  // Wilson
};
RateEstimate EstimateRate(double successes, std::uint64_t trials, double confidence = 0.95);

struct AttackRisk {
  RateEstimate train;    // the attack against training rows
  RateEstimate control;  // the same attack against control rows: the baseline
  RateEstimate naive;    // a random-guess attacker against training rows
  double risk = 0;       // (r_train − r_control) / (1 − r_control); may be < 0
  Interval risk_interval;
  bool attack_beats_naive = true;  // the attack's rate is above the random guess's interval
};

// Fills risk and risk_interval from the three rates (a control rate of 1 gives risk 0, [0, 0]:
// nothing is left to gain).
AttackRisk CombineRates(const RateEstimate& train, const RateEstimate& control,
                        const RateEstimate& naive);

}  // namespace deniable
