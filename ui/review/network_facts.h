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
