// SPDX-License-Identifier: Apache-2.0
// SeedModel: the seed-based generative model M of the plausible-deniability paper (§3.2,
// eq. 3) compiled for speed, with probabilities that are EXACTLY those its sampler draws.
//
// Attributes are handled in "positions": position i holds attribute σ(i), σ being the
// network's topological order (BayesNet::nodes order). A candidate is a vector of m codes in
// position order. For position i, Probability() is Pr{x_σ(i) = values[i] | bucketed parents},
// read from values[0..i-1] (parents come earlier in σ).
//
// Exactness. The privacy test (Privacy Test 1/2) classifies seeds by Pr{y = M(d)}; that value
// must be the probability with which the sampler really produces y. Each conditional
// distribution is therefore quantised once to integer weights summing to 2^62 and sampled
// with an integer alias table over a power-of-two number of columns: outcome v is drawn with
// probability exactly w_v / 2^62, and Probability() returns w_v · 2^-62 rounded to a double
// (relative error <= 2^-53). Quantisation is post-processing of the already-DP model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/model/bayes_net.h"
#include "engine/model/encoded_table.h"

namespace deniable {

class SeedModel {
 public:
  // `network.nodes` in sampling order (σ); validated against `cardinalities`.
  static Result<SeedModel> Create(const BayesNet& network,
                                  const std::vector<std::uint32_t>& cardinalities);

  int attributes() const { return static_cast<int>(positions_.size()); }
  // σ: attribute held at position i.
  int AttributeAt(int position) const {
    return positions_[static_cast<std::size_t>(position)].attribute;
  }
  const std::vector<int>& order() const { return order_; }
  std::uint32_t CardinalityAt(int position) const {
    return positions_[static_cast<std::size_t>(position)].cardinality;
  }

  // Draws the code of `position` given values[0..position-1].
  Code Sample(int position, const Code* values, Rng& rng) const {
    const Position& p = positions_[static_cast<std::size_t>(position)];
    const std::size_t slot_base = p.alias_base + (Configuration(p, values) << p.column_bits);
    const std::uint64_t word = rng() >> 2;  // 62 uniform bits
    const std::uint64_t column = p.column_bits == 0 ? 0 : word >> (62 - p.column_bits);
    const std::uint64_t low = word & p.low_mask;
    const AliasSlot& slot = alias_[slot_base + column];
    return low < slot.threshold ? static_cast<Code>(column) : slot.alias;
  }

  // Pr{x_σ(position) = values[position] | parents' values in `values`}.
  double Probability(int position, const Code* values) const {
    const Position& p = positions_[static_cast<std::size_t>(position)];
    return probabilities_[p.probability_base + Configuration(p, values) * p.cardinality +
                          values[static_cast<std::size_t>(position)]];
  }

  // Eq. (3): y copies positions 0..copied-1 of `seed` and re-samples the others in order.
  void Generate(const Code* seed, int copied, Code* y, Rng& rng) const {
    for (int i = 0; i < copied; ++i) y[i] = seed[i];
    for (int i = copied; i < attributes(); ++i) y[i] = Sample(i, y, rng);
  }

  // The network with its tables replaced by the quantised probabilities this model uses.
  const BayesNet& network() const { return network_; }

 private:
  struct Position {
    int attribute = 0;
    std::uint32_t cardinality = 0;
    std::size_t probability_base = 0;  // first entry of this position in probabilities_
    std::size_t alias_base = 0;        // first entry of this position in alias_
    std::vector<std::uint32_t> parent_positions;
    std::vector<std::vector<std::uint32_t>> contribution;  // per parent: code -> bucket * stride
    unsigned column_bits = 0;                              // alias columns = 2^column_bits
    std::uint64_t low_mask = 0;
  };
  struct AliasSlot {
    std::uint64_t threshold = 0;
    Code alias = 0;
  };

  static std::size_t Configuration(const Position& p, const Code* values) {
    std::size_t configuration = 0;
    for (std::size_t j = 0; j < p.parent_positions.size(); ++j) {
      configuration += p.contribution[j][values[p.parent_positions[j]]];
    }
    return configuration;
  }

  BayesNet network_;
  std::vector<int> order_;
  std::vector<Position> positions_;
  std::vector<double> probabilities_;  // per (configuration, value), all positions
  std::vector<AliasSlot> alias_;       // per (configuration, column), all positions
};

namespace internal {
// Integer weights summing to exactly 2^62, proportional to p[0..k) (floor, the remainder to
// the largest entry). Entries with p = 0 get weight 0. Requires a positive sum.
std::vector<std::uint64_t> QuantizeDistribution(const double* p, std::uint32_t k);
}  // namespace internal

}  // namespace deniable
