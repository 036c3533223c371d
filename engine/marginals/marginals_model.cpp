// SPDX-License-Identifier: Apache-2.0
#include "engine/marginals/marginals_model.h"

#include <algorithm>
#include <cmath>

namespace deniable {

GraphicalModel ModelFromMarginals(JunctionTree tree, const std::vector<Factor>& marginals,
                                  double total) {
  GraphicalModel model(std::move(tree), total);
  // A floor keeps log finite (a zero cell stays ~0: e^-700 of the mass).
  constexpr double kFloor = 1e-300;
  for (std::size_t c = 0; c < marginals.size(); ++c) {
    Factor& p = model.potentials()[c];
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      p.values[i] = std::log(std::max(marginals[c].values[i], kFloor));
    }
    const Clique& separator = model.tree().parent_separator(static_cast<int>(c));
    if (model.tree().parent(static_cast<int>(c)) >= 0) {
      Factor s = SumOnto(marginals[c], separator);
      for (double& v : s.values) v = std::log(std::max(v, kFloor));
      AddBroadcast(p, s, -1.0);
    }
  }
  model.Calibrate();
  return model;
}

EncodedTable MarginalsModel::Sample(std::size_t rows, const SamplingOptions& options,
                                    Rng& rng) const {
  EncodedTable sampled = SampleModel(model, rows, options, rng);
  if (options.pair_swaps_per_row > 0) {
    RefineSampleMarginals(model, sampled, options.pair_swaps_per_row, rng);
  }
  ApplyConsistentPairs(consistent_pairs, sampled);
  return compression.Expand(sampled, rng);
}

nlohmann::json MarginalsModel::ToJson() const {
  using nlohmann::json;
  json cliques = json::array();
  json marginals = json::array();
  const double total = model.total();
  for (std::size_t c = 0; c < model.tree().cliques().size(); ++c) {
    cliques.push_back(model.tree().cliques()[c]);
    json values = json::array();
    for (double v : model.marginals()[c].values) values.push_back(v / total);
    marginals.push_back(std::move(values));
  }
  json compressed = json::array();
  for (const auto& per_attribute : compression.backward) compressed.push_back(per_attribute);
  json measured_json = json::array();
  for (std::size_t k = 0; k < measured.size(); ++k) {
    measured_json.push_back({{"clique", measured[k]}, {"sigma", measured_sigma[k]}});
  }
  json bounds = json::array();
  for (const QueryErrorBound& b : error_bounds) {
    json entry{{"clique", b.clique}, {"weight", b.weight}, {"measured", b.measured}};
    if (b.measured) {
      entry["sigma"] = b.sigma;
      entry["expected_l1_fraction"] = b.expected_l1_fraction;
    }
    bounds.push_back(std::move(entry));
  }
  json out{{"mechanism", mechanism},
           {"cliques", std::move(cliques)},
           {"marginals", std::move(marginals)},
           {"compression", std::move(compressed)},
           {"measured", std::move(measured_json)},
           {"error_bounds", std::move(bounds)}};
  if (rounds > 0) out["rounds"] = rounds;
  if (!consistent_pairs.empty()) {
    json pairs = json::array();
    for (const ConsistentPair& p : consistent_pairs) {
      std::vector<int> forced(p.forced.begin(), p.forced.end());
      pairs.push_back({{"parent", p.parent},
                       {"child", p.child},
                       {"lambda", p.lambda},
                       {"mapping", p.mapping},
                       {"forced", forced}});
    }
    out["consistent_pairs"] = std::move(pairs);
  }
  return out;
}

Result<MarginalsModel> MarginalsModel::FromJson(const nlohmann::json& json,
                                                const std::vector<std::uint32_t>& sizes,
                                                const std::string& where) {
  auto fail = [&](const std::string& what) { return ParseError(where + ": " + what); };
  if (!json.is_object()) return fail("expected an object");
  try {
    MarginalsModel out;
    out.mechanism = json.at("mechanism").get<std::string>();
    // Compression: per attribute, a partition of 0..size-1 into compressed codes.
    const auto& compressed = json.at("compression");
    if (!compressed.is_array() || compressed.size() != sizes.size()) {
      return fail("compression: one entry per attribute expected");
    }
    out.compression.sizes.clear();
    for (std::size_t a = 0; a < sizes.size(); ++a) {
      auto backward = compressed[a].get<std::vector<std::vector<std::uint32_t>>>();
      std::vector<std::uint32_t> forward(sizes[a], UINT32_MAX);
      for (std::size_t c = 0; c < backward.size(); ++c) {
        if (backward[c].empty()) return fail("compression: an empty code");
        for (std::uint32_t v : backward[c]) {
          if (v >= sizes[a] || forward[v] != UINT32_MAX) {
            return fail("compression of attribute " + std::to_string(a) + ": code " +
                        std::to_string(v) + " out of range or repeated");
          }
          forward[v] = static_cast<std::uint32_t>(c);
        }
      }
      if (backward.empty())
        return fail("compression of attribute " + std::to_string(a) + ": no code");
      // A code listed nowhere was dropped (a negligible missing code): never generated.
      for (std::uint32_t& f : forward) {
        if (f == UINT32_MAX) f = 0;
      }
      out.compression.sizes.push_back(static_cast<std::uint32_t>(backward.size()));
      out.compression.forward.push_back(std::move(forward));
      out.compression.backward.push_back(std::move(backward));
    }
    const auto cliques = json.at("cliques").get<std::vector<Clique>>();
    const auto& marginals = json.at("marginals");
    if (!marginals.is_array() || marginals.size() != cliques.size()) {
      return fail("one marginal per clique expected");
    }
    for (const Clique& c : cliques) {
      if (c.empty() || !std::is_sorted(c.begin(), c.end()) ||
          std::adjacent_find(c.begin(), c.end()) != c.end() || c.front() < 0 ||
          static_cast<std::size_t>(c.back()) >= sizes.size()) {
        return fail("a clique is not a sorted set of attributes");
      }
      if (CellCount(c, out.compression.sizes) > (std::size_t{1} << 28)) {
        return fail("a clique is too large");
      }
    }
    JunctionTree tree = JunctionTree::Build(cliques, out.compression.sizes);
    if (tree.cliques().size() != cliques.size()) return fail("cliques are not a junction tree");
    std::vector<Factor> factors;
    for (const Clique& c : tree.cliques()) {
      const auto at = std::find(cliques.begin(), cliques.end(), c);
      if (at == cliques.end()) return fail("cliques are not a junction tree");
      Factor f = Factor::Filled(c, out.compression.sizes, 0.0);
      f.values =
          marginals[static_cast<std::size_t>(at - cliques.begin())].get<std::vector<double>>();
      if (f.values.size() != CellCount(c, out.compression.sizes)) {
        return fail("a marginal has the wrong number of cells");
      }
      for (double v : f.values) {
        if (!(std::isfinite(v) && v >= 0))
          return fail("a marginal has a negative or non-finite cell");
      }
      factors.push_back(std::move(f));
    }
    out.model = ModelFromMarginals(std::move(tree), factors, 1.0);
    if (json.contains("measured")) {
      for (const auto& m : json.at("measured")) {
        out.measured.push_back(m.at("clique").get<Clique>());
        out.measured_sigma.push_back(m.at("sigma").get<double>());
      }
    }
    if (json.contains("error_bounds")) {
      for (const auto& b : json.at("error_bounds")) {
        QueryErrorBound bound;
        bound.clique = b.at("clique").get<Clique>();
        bound.weight = b.at("weight").get<double>();
        bound.measured = b.at("measured").get<bool>();
        if (bound.measured) {
          bound.sigma = b.at("sigma").get<double>();
          bound.expected_l1_fraction = b.at("expected_l1_fraction").get<double>();
        }
        out.error_bounds.push_back(std::move(bound));
      }
    }
    out.rounds = json.value("rounds", 0);
    if (json.contains("consistent_pairs")) {
      const std::vector<std::uint32_t>& model_sizes = out.compression.sizes;
      for (const auto& p : json.at("consistent_pairs")) {
        ConsistentPair pair;
        pair.parent = p.at("parent").get<int>();
        pair.child = p.at("child").get<int>();
        pair.lambda = p.value("lambda", 0.0);
        pair.mapping = p.at("mapping").get<std::vector<std::uint32_t>>();
        const auto forced = p.at("forced").get<std::vector<int>>();
        const auto in_range = [&](int a) {
          return a >= 0 && static_cast<std::size_t>(a) < model_sizes.size();
        };
        if (!in_range(pair.parent) || !in_range(pair.child) || pair.parent == pair.child) {
          return fail("consistent_pairs: attributes out of range");
        }
        const std::uint32_t na = model_sizes[static_cast<std::size_t>(pair.parent)];
        const std::uint32_t nb = model_sizes[static_cast<std::size_t>(pair.child)];
        if (pair.mapping.size() != na || forced.size() != na) {
          return fail("consistent_pairs: one mapping and one forced flag per code of the parent");
        }
        for (std::uint32_t v : pair.mapping) {
          if (v >= nb) return fail("consistent_pairs: a mapped code out of range");
        }
        for (int f : forced) pair.forced.push_back(f != 0);
        out.consistent_pairs.push_back(std::move(pair));
      }
    }
    return out;
  } catch (const nlohmann::json::exception& e) {
    return fail(e.what());
  }
}

}  // namespace deniable
