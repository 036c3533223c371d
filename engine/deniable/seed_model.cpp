// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/seed_model.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "engine/core/int128.h"

namespace deniable {
namespace {

constexpr std::uint64_t kTotalWeight = std::uint64_t{1} << 62;

unsigned ColumnBits(std::uint32_t cardinality) {
  unsigned bits = 0;
  while ((std::uint64_t{1} << bits) < cardinality) ++bits;
  return bits;
}

// Exact integer alias table (Vose) over 2^bits columns of capacity 2^(62 - bits) each, for
// integer weights summing to 2^62 (padding columns have weight 0). Column c yields c when the
// low bits are below threshold[c], else alias[c]; outcome v then has probability exactly
// weights[v] / 2^62.
void BuildExactAlias(const std::vector<std::uint64_t>& weights, unsigned bits,
                     std::uint64_t* threshold, Code* alias) {
  const std::size_t columns = std::size_t{1} << bits;
  const std::uint64_t capacity = kTotalWeight >> bits;
  std::vector<std::uint64_t> mass(columns, 0);
  std::copy(weights.begin(), weights.end(), mass.begin());
  std::vector<std::size_t> small, large;
  for (std::size_t c = 0; c < columns; ++c) (mass[c] < capacity ? small : large).push_back(c);
  while (!small.empty() && !large.empty()) {
    const std::size_t s = small.back();
    small.pop_back();
    const std::size_t l = large.back();
    threshold[s] = mass[s];
    alias[s] = static_cast<Code>(l);
    mass[l] -= capacity - mass[s];  // exact: mass[l] >= capacity > capacity - mass[s]
    if (mass[l] < capacity) {
      large.pop_back();
      small.push_back(l);
    }
  }
  // In exact arithmetic every remaining column holds exactly `capacity`.
  for (std::size_t c : large) {
    assert(mass[c] == capacity && "exact alias: leftover large column");
    threshold[c] = capacity;
    alias[c] = static_cast<Code>(c);
  }
  for (std::size_t c : small) {
    assert(mass[c] == capacity && "exact alias: leftover small column");
    threshold[c] = capacity;
    alias[c] = static_cast<Code>(c);
  }
}

}  // namespace

namespace internal {

std::vector<std::uint64_t> QuantizeDistribution(const double* p, std::uint32_t k) {
  double total = 0;
  for (std::uint32_t v = 0; v < k; ++v) total += p[v];
  assert(total > 0 && "QuantizeDistribution: the distribution has no mass");
  std::vector<std::uint64_t> weights(k, 0);
  Int128 sum = 0;
  std::uint32_t largest = 0;
  for (std::uint32_t v = 0; v < k; ++v) {
    const double scaled = std::ldexp(p[v] / total, 62);
    weights[v] = scaled >= std::ldexp(1.0, 62) ? kTotalWeight
                                               : static_cast<std::uint64_t>(std::floor(scaled));
    sum += weights[v];
    if (p[v] > p[largest]) largest = v;
  }
  // Floating-point rounding leaves a small surplus or deficit; the largest entry absorbs it
  // (it holds at least 2^62 / k, far more than any rounding error).
  const Int128 difference = static_cast<Int128>(kTotalWeight) - sum;
  weights[largest] = static_cast<std::uint64_t>(static_cast<Int128>(weights[largest]) + difference);
  return weights;
}

}  // namespace internal

Result<SeedModel> SeedModel::Create(const BayesNet& network,
                                    const std::vector<std::uint32_t>& cardinalities) {
  if (std::string error = network.Validate(cardinalities); !error.empty()) {
    return InvalidArgument("invalid generative model: " + error);
  }
  SeedModel model;
  model.network_ = network;
  const std::size_t m = network.nodes.size();
  std::vector<int> position_of(m, -1);
  for (std::size_t i = 0; i < m; ++i) {
    position_of[static_cast<std::size_t>(network.nodes[i].attribute)] = static_cast<int>(i);
  }
  model.positions_.resize(m);
  model.order_.resize(m);
  for (std::size_t i = 0; i < m; ++i) {
    BayesNode& node = model.network_.nodes[i];
    Position& position = model.positions_[i];
    position.attribute = node.attribute;
    position.cardinality = node.cardinality;
    model.order_[i] = node.attribute;
    // Mixed radix, first parent most significant (bayes_net.h).
    std::size_t stride = 1;
    const std::size_t parents = node.parents.size();
    position.parent_positions.resize(parents);
    position.contribution.resize(parents);
    for (std::size_t j = parents; j-- > 0;) {
      const std::size_t parent = static_cast<std::size_t>(node.parents[j]);
      position.parent_positions[j] = static_cast<std::uint32_t>(position_of[parent]);
      std::vector<std::uint32_t>& contribution = position.contribution[j];
      contribution.resize(cardinalities[parent]);
      for (std::uint32_t code = 0; code < cardinalities[parent]; ++code) {
        contribution[code] = static_cast<std::uint32_t>(node.BucketOf(j, code) * stride);
      }
      stride *= node.parent_bucket_counts[j];
    }
    const std::size_t configurations = node.configurations();
    position.column_bits = ColumnBits(node.cardinality);
    position.low_mask = (kTotalWeight >> position.column_bits) - 1;
    position.probability_base = model.probabilities_.size();
    position.alias_base = model.alias_.size();
    const std::size_t columns = std::size_t{1} << position.column_bits;
    model.probabilities_.resize(position.probability_base + configurations * node.cardinality);
    model.alias_.resize(position.alias_base + configurations * columns);
    std::vector<std::uint64_t> thresholds(columns);
    std::vector<Code> aliases(columns);
    for (std::size_t c = 0; c < configurations; ++c) {
      double* p = node.probabilities.data() + c * node.cardinality;
      const std::vector<std::uint64_t> weights =
          internal::QuantizeDistribution(p, node.cardinality);
      BuildExactAlias(weights, position.column_bits, thresholds.data(), aliases.data());
      for (std::size_t column = 0; column < columns; ++column) {
        model.alias_[position.alias_base + c * columns + column] =
            AliasSlot{thresholds[column], aliases[column]};
      }
      for (std::uint32_t v = 0; v < node.cardinality; ++v) {
        const double q = std::ldexp(static_cast<double>(weights[v]), -62);
        p[v] = q;  // the network now states exactly what is sampled
        model.probabilities_[position.probability_base + c * node.cardinality + v] = q;
      }
    }
  }
  return model;
}

}  // namespace deniable
