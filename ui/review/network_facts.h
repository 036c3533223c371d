// SPDX-License-Identifier: Apache-2.0
// What the Network tab and the report say about the learned network: the sampling order σ
// (the network's node order), the ω setting of the deniable mode and, per attribute, whether a
// candidate re-samples it (the last ω attributes in σ) or copies it from its seed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/deniable/deniable_options.h"
#include "ui/review/review_data.h"

namespace deniable::ui {

enum class Resampling {
  kNotDeniable,  // not the deniable mode: every attribute is sampled from the model
  kAlways,       // among the last ω_min in σ: re-sampled for every candidate
  kSometimes,    // among the last ω_max but not the last ω_min: for some candidates
  kNever,        // before the last ω_max: always copied from the seed
};
const char* ResamplingName(Resampling resampling);  // "always re-sampled", ...

// A marginal the marginals mode measured (issue 10): its attributes and the noise's σ.
struct MeasuredMarginal {
  std::vector<int> attributes;  // indices into Description::domains
  double sigma = 0;
};

// One workload query of AIM with its a-priori error (AIM §5; parameters.model.error_bounds):
// a query inside a measured marginal has an expected noise of `expected_tvd` in total
// variation; the others are estimated from the model and carry no bound.
struct WorkloadBound {
  std::vector<int> attributes;
  bool measured = false;
  double expected_tvd = 0;  // half the expected L1 error as a fraction of the rows
};

// What the bounds say about the queries that contain one attribute.
struct AttributeBounds {
  int queries = 0;       // workload queries with the attribute
  int bounded = 0;       // of them inside a measured marginal
  double median_tvd = 0; // of the bounded ones
  double worst_tvd = 0;
};

struct NetworkFacts {
  bool deniable = false;
  // The marginals mode (MST / AIM): no Bayesian network; the model is fitted to these noisy
  // marginals (the description's parameters.model.measured). Empty in the other modes.
  bool marginals = false;
  std::string mechanism;  // "aim" or "mst"
  std::vector<MeasuredMarginal> measured;
  // Pairs (a < b) of attributes measured together in some marginal of two or more.
  std::vector<std::pair<int, int>> MeasuredPairs() const;
  // The measured marginals that contain `attribute`.
  std::vector<std::size_t> MeasuredWith(int attribute) const;
  std::vector<WorkloadBound> bounds;  // AIM only
  // Near-functional pairs made exact in every sampled row (parameters.model.consistent_pairs,
  // engine/marginals/consistency.h): (parent, child), attribute indices.
  std::vector<std::pair<int, int>> exact_pairs;
  AttributeBounds BoundsOf(int attribute) const;
  std::optional<OmegaRange> omega;  // deniable mode, when the run recorded it
  std::vector<int> sigma;           // attribute indices (into Description::domains) in σ order
  std::vector<int> position;        // per attribute: its position in σ (-1 if absent)

  Resampling ResamplingOf(int attribute) const;
  std::string SigmaText(const std::vector<std::string>& names) const;  // "a → b → c"
};

// ω is read from the deniable summary's guarantee ({"omega": {"min", "max"}}) or from the
// description's parameters ("omega_min"/"omega_max", 0/0 resolved as the engine does).
NetworkFacts ExtractNetworkFacts(const ReviewData& data);

// The names of Description::domains (the network's attributes), in attribute order.
std::vector<std::string> AttributeNames(const Description& description);

}  // namespace deniable::ui
