// SPDX-License-Identifier: Apache-2.0
#include "ui/review/network_facts.h"

#include <algorithm>
#include <set>

namespace deniable::ui {
namespace {

std::optional<int> intField(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return std::nullopt;
  const auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int>();
}

std::optional<OmegaRange> omegaOf(const ReviewData& data, int attributes) {
  const nlohmann::json& guarantee = data.summary.guarantee;
  if (guarantee.is_object() && guarantee.contains("omega")) {
    const auto min = intField(guarantee["omega"], "min");
    const auto max = intField(guarantee["omega"], "max");
    if (min && max && *min >= 1 && *min <= *max) return OmegaRange{*min, *max};
  }
  const nlohmann::json& parameters = data.description.parameters;
  auto min = intField(parameters, "omega_min");
  auto max = intField(parameters, "omega_max");
  if (const auto fixed = intField(parameters, "omega")) min = max = *fixed;
  if (parameters.is_object() && parameters.contains("omega") && parameters["omega"].is_object()) {
    min = intField(parameters["omega"], "min");
    max = intField(parameters["omega"], "max");
  }
  if (!min || !max) return std::nullopt;
  DeniableOptions options;
  options.omega_min = *min;
  options.omega_max = *max;
  auto range = ResolveOmega(options, attributes);
  if (!range || range->min < 0 || range->min > range->max) return std::nullopt;
  return range.value();
}

}  // namespace

const char* ResamplingName(Resampling resampling) {
  switch (resampling) {
    case Resampling::kNotDeniable: return "sampled from the model";
    case Resampling::kAlways: return "always re-sampled";
    case Resampling::kSometimes: return "re-sampled for some candidates";
    case Resampling::kNever: return "copied from the seed";
  }
  return "";
}

Resampling NetworkFacts::ResamplingOf(int attribute) const {
  if (!deniable || !omega || attribute < 0 ||
      static_cast<std::size_t>(attribute) >= position.size() ||
      position[static_cast<std::size_t>(attribute)] < 0) {
    return Resampling::kNotDeniable;
  }
  const int m = static_cast<int>(sigma.size());
  const int i = position[static_cast<std::size_t>(attribute)];
  if (i >= m - omega->min) return Resampling::kAlways;
  if (i >= m - omega->max) return Resampling::kSometimes;
  return Resampling::kNever;
}

std::string NetworkFacts::SigmaText(const std::vector<std::string>& names) const {
  std::string text;
  for (std::size_t i = 0; i < sigma.size(); ++i) {
    if (i > 0) text += " → ";
    const auto a = static_cast<std::size_t>(sigma[i]);
    text += a < names.size() ? names[a] : "attribute " + std::to_string(a);
  }
  return text;
}

NetworkFacts ExtractNetworkFacts(const ReviewData& data) {
  NetworkFacts facts;
  const BayesNet& network = data.description.network;
  facts.position.assign(data.description.domains.size(), -1);
  for (const BayesNode& node : network.nodes) {
    if (node.attribute >= 0 &&
        static_cast<std::size_t>(node.attribute) < facts.position.size()) {
      facts.position[static_cast<std::size_t>(node.attribute)] =
          static_cast<int>(facts.sigma.size());
    }
    facts.sigma.push_back(node.attribute);
  }
  facts.deniable = data.description.mode == "deniable" ||
                   data.settings.mode == SynthesisMode::kDeniable;
  facts.marginals = data.description.mode == "marginals";
  if (facts.marginals) {
    // parameters.model as the engine writes it (pipeline: "mechanism", "measured": [{"clique":
    // [...], "sigma": s}, ...]); anything malformed is skipped, never trusted.
    const nlohmann::json model = data.description.parameters.value("model", nlohmann::json());
    if (model.is_object()) {
      if (model.contains("mechanism") && model["mechanism"].is_string()) {
        facts.mechanism = model["mechanism"].get<std::string>();
      }
      const nlohmann::json measured = model.value("measured", nlohmann::json::array());
      const auto attributes = static_cast<int>(data.description.domains.size());
      auto clique = [&](const nlohmann::json& list, std::vector<int>& out) {
        if (!list.is_array()) return false;
        for (const nlohmann::json& a : list) {
          if (!a.is_number_integer() || a.get<int>() < 0 || a.get<int>() >= attributes) return false;
          out.push_back(a.get<int>());
        }
        return !out.empty();
      };
      const nlohmann::json pairs = model.value("consistent_pairs", nlohmann::json::array());
      for (const nlohmann::json& p : pairs.is_array() ? pairs : nlohmann::json::array()) {
        std::vector<int> both;
        if (!p.is_object() ||
            !clique(nlohmann::json::array({p.value("parent", nlohmann::json()),
                                           p.value("child", nlohmann::json())}),
                    both) ||
            both.size() != 2 || both[0] == both[1]) {
          continue;
        }
        facts.exact_pairs.emplace_back(both[0], both[1]);
      }
      const nlohmann::json bounds = model.value("error_bounds", nlohmann::json::array());
      for (const nlohmann::json& b : bounds.is_array() ? bounds : nlohmann::json::array()) {
        WorkloadBound bound;
        if (!b.is_object() || !clique(b.value("clique", nlohmann::json()), bound.attributes)) continue;
        const nlohmann::json fraction = b.value("expected_l1_fraction", nlohmann::json());
        bound.measured = b.value("measured", false) && fraction.is_number();
        if (bound.measured) bound.expected_tvd = fraction.get<double>() / 2;
        facts.bounds.push_back(std::move(bound));
      }
      for (const nlohmann::json& m : measured.is_array() ? measured : nlohmann::json::array()) {
        if (!m.is_object() || !m.contains("clique") || !m["clique"].is_array()) continue;
        MeasuredMarginal marginal;
        bool ok = true;
        for (const nlohmann::json& a : m["clique"]) {
          ok = ok && a.is_number_integer() && a.get<int>() >= 0 && a.get<int>() < attributes;
          if (ok) marginal.attributes.push_back(a.get<int>());
        }
        if (!ok || marginal.attributes.empty()) continue;
        if (m.contains("sigma") && m["sigma"].is_number()) marginal.sigma = m["sigma"].get<double>();
        facts.measured.push_back(std::move(marginal));
      }
    }
  }
  if (facts.deniable && !facts.sigma.empty()) {
    facts.omega = omegaOf(data, static_cast<int>(facts.sigma.size()));
  }
  return facts;
}

std::vector<std::pair<int, int>> NetworkFacts::MeasuredPairs() const {
  std::set<std::pair<int, int>> pairs;
  for (const MeasuredMarginal& m : measured) {
    for (std::size_t i = 0; i < m.attributes.size(); ++i) {
      for (std::size_t j = i + 1; j < m.attributes.size(); ++j) {
        const int a = m.attributes[i], b = m.attributes[j];
        if (a != b) pairs.insert({std::min(a, b), std::max(a, b)});
      }
    }
  }
  return {pairs.begin(), pairs.end()};
}

std::vector<std::size_t> NetworkFacts::MeasuredWith(int attribute) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < measured.size(); ++i) {
    const auto& a = measured[i].attributes;
    if (std::find(a.begin(), a.end(), attribute) != a.end()) out.push_back(i);
  }
  return out;
}

AttributeBounds NetworkFacts::BoundsOf(int attribute) const {
  AttributeBounds out;
  std::vector<double> tvd;
  for (const WorkloadBound& b : bounds) {
    if (std::find(b.attributes.begin(), b.attributes.end(), attribute) == b.attributes.end()) {
      continue;
    }
    ++out.queries;
    if (b.measured) tvd.push_back(b.expected_tvd);
  }
  out.bounded = static_cast<int>(tvd.size());
  if (!tvd.empty()) {
    std::sort(tvd.begin(), tvd.end());
    out.median_tvd = tvd[tvd.size() / 2];
    out.worst_tvd = tvd.back();
  }
  return out;
}

std::vector<std::string> AttributeNames(const Description& description) {
  std::vector<std::string> names;
  for (const ColumnDomain& domain : description.domains) names.push_back(domain.AttributeName());
  return names;
}

}  // namespace deniable::ui
