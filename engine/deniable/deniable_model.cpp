// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/deniable_model.h"

#include <cmath>

#include "engine/deniable/cfs_structure.h"
#include "engine/deniable/entropy.h"
#include "engine/deniable/guarantees.h"
#include "engine/deniable/parameter_learning.h"
#include "engine/deniable/seed_model.h"
#include "engine/model/privbayes.h"

namespace deniable {
namespace {

// ε of one parameter table when all m tables share `epsilon` (as parameter_learning.cpp
// composes them), for the θ-usefulness limits chosen before the tables are learned.
double ParameterEpsilonEach(const PrivacyAccountant& accountant, std::size_t m, double epsilon) {
  LedgerEntry entry;
  entry.label = "planned parameter tables";
  entry.partition = "D_P";
  entry.sensitivity = 1;
  entry.count = m;
  return LargestEpsilonEach(accountant, entry, epsilon);
}

// The PrivBayes structure sizes its tables with a plain noisy count (no lower bound): a fixed
// share when row_count_fraction is automatic.
constexpr double kPrivBayesRowCountFraction = 0.02;
constexpr std::uint32_t kPrivBayesBucketCount = 8;

std::string Percent(double fraction) {
  return std::to_string(static_cast<int>(std::lround(fraction * 100))) + "%";
}

}  // namespace

Result<DataSplit> SplitRows(std::size_t rows, const DeniableOptions& options,
                            PrivacyAccountant& accountant, Rng& rng) {
  if (Status s = options.Validate(); !s) return s.error();
  if (rows >= 0xFFFFFFFFull) {
    return FailedPrecondition("too many rows to split (" + std::to_string(rows) + ")");
  }
  const std::string each = " of the rows, each row independently at random";
  for (const auto& [name, fraction, purpose] :
       {std::tuple<const char*, double, const char*>{"D_T", options.split_structure,
                                                     "structure learning: "},
        {"D_P", options.split_parameters, "parameter learning: "},
        {"D_S", options.split_seeds, "seeds of the plausibly deniable synthesis: "}}) {
    if (Status s = accountant.AddPartition(name, "all", purpose + Percent(fraction) + each); !s) {
      return s.error();
    }
  }
  DataSplit split;
  const double first = options.split_structure;
  const double second = options.split_structure + options.split_parameters;
  for (std::size_t r = 0; r < rows; ++r) {
    const double u = UniformUnit(rng);
    const auto row = static_cast<std::uint32_t>(r);
    (u < first    ? split.structure_rows
     : u < second ? split.parameter_rows
                  : split.seed_rows)
        .push_back(row);
  }
  return split;
}

std::vector<std::vector<std::uint32_t>> DefaultBucketMaps(
    const std::vector<std::uint32_t>& cardinalities, std::uint32_t bucket_count) {
  std::vector<std::vector<std::uint32_t>> maps(cardinalities.size());
  if (bucket_count < 2) return maps;  // no bkt(): every code is its own bucket
  for (std::size_t a = 0; a < cardinalities.size(); ++a) {
    if (cardinalities[a] > bucket_count) {
      maps[a] = CoarseBinBuckets(cardinalities[a], 0, bucket_count);
    }
  }
  return maps;
}

std::vector<std::vector<std::uint32_t>> BucketMapsForDomains(
    const std::vector<ColumnDomain>& domains, std::uint32_t bucket_count) {
  std::vector<std::vector<std::uint32_t>> maps(domains.size());
  if (bucket_count < 2) return maps;
  for (std::size_t a = 0; a < domains.size(); ++a) {
    const ColumnDomain& d = domains[a];
    // Categorical codes are in no meaningful order: merging neighbours is arbitrary.
    if (d.categorical || d.value_codes() <= bucket_count) continue;
    const std::uint32_t ordered = d.value_codes();
    maps[a] = CoarseBinBuckets(ordered, d.cardinality() - ordered, bucket_count);
  }
  return maps;
}

std::vector<int> DeniableModel::Order() const {
  std::vector<int> order;
  for (const BayesNode& node : network.nodes) order.push_back(node.attribute);
  return order;
}

nlohmann::json DeniableModel::ToJson(const std::vector<std::string>* names) const {
  auto name = [&](int a) -> nlohmann::json {
    if (names != nullptr && static_cast<std::size_t>(a) < names->size()) {
      return (*names)[static_cast<std::size_t>(a)];
    }
    return a;
  };
  nlohmann::json j;
  j["structure"] = DeniableStructureName(structure);
  j["omega"] = {{"min", omega.min}, {"max", omega.max}};
  nlohmann::json sigma = nlohmann::json::array();
  nlohmann::json nodes = nlohmann::json::array();
  for (const BayesNode& node : network.nodes) {
    sigma.push_back(name(node.attribute));
    nlohmann::json parents = nlohmann::json::array();
    for (int p : node.parents) parents.push_back(name(p));
    nodes.push_back({{"attribute", name(node.attribute)},
                     {"parents", parents},
                     {"parent_bucket_counts", node.parent_bucket_counts},
                     {"configurations", node.configurations()}});
  }
  j["sigma"] = sigma;
  j["nodes"] = nodes;
  j["cardinalities"] = cardinalities;
  if (structure == DeniableStructure::kCfs) {
    j["cfs"] = {{"noisy_structure_rows", noisy_structure_rows},
                {"entropy_sensitivity", entropy_sensitivity},
                {"entropy_queries", entropy_queries},
                {"epsilon_per_entropy", epsilon_per_entropy}};
  }
  return j;
}

Result<DeniableModel> LearnDeniableModel(const EncodedTable& data, const DataSplit& split,
                                         const DeniableOptions& options,
                                         std::vector<std::vector<std::uint32_t>> bucket_maps,
                                         PrivacyAccountant& accountant, Rng& rng,
                                         Progress& progress,
                                         const std::vector<std::string>* names) {
  if (Status s = options.Validate(); !s) return s.error();
  if (Status s = internal::CheckEncodedTable(data); !s) return s.error();
  const int m = static_cast<int>(data.num_attributes());
  auto omega = ResolveOmega(options, m);
  if (!omega) return omega.error();
  if (options.structure == DeniableStructure::kPrivBayes && options.bucket_count == 0) {
    // PrivBayes's table limit counts every cell alike, and it was measured with parents
    // coarsened to 8 groups (the former default): it keeps them.
    bucket_maps = DefaultBucketMaps(data.cardinalities, kPrivBayesBucketCount);
  }
  if (bucket_maps.empty())
    bucket_maps = DefaultBucketMaps(data.cardinalities, options.bucket_count);
  if (bucket_maps.size() != data.num_attributes()) {
    return InvalidArgument("one bucket map per attribute expected (got " +
                           std::to_string(bucket_maps.size()) + " for " + std::to_string(m) +
                           " attributes)");
  }
  DeniableModel model;
  model.structure = options.structure;
  model.cardinalities = data.cardinalities;
  model.omega = *omega;

  SubProgress structure_progress(progress, 0.0, 0.6);
  std::vector<BayesNode> structure;
  std::vector<double> determined_values;  // CFS only: (near-)deterministic children
  const double parameter_epsilon =
      ParameterEpsilonEach(accountant, data.num_attributes(), options.model_epsilon);
  const double row_ratio = options.split_parameters / options.split_structure;
  if (options.structure == DeniableStructure::kMarginals) {
    for (int a = 0; a < m; ++a) {
      BayesNode node;
      node.attribute = a;
      structure.push_back(node);
    }
  } else {
    const EncodedTable d_t = SelectRows(data, split.structure_rows);
    if (options.structure == DeniableStructure::kCfs) {
      CfsOptions cfs;
      cfs.epsilon = options.model_epsilon;
      cfs.delta = options.structure_delta;
      cfs.row_count_fraction = options.row_count_fraction;
      cfs.maxcost = options.maxcost;
      cfs.usefulness_theta = options.usefulness_theta;
      cfs.parameter_epsilon = parameter_epsilon;
      cfs.parameter_row_ratio = row_ratio;
      cfs.buckets = bucket_maps;
      cfs.names = names;
      auto learned = LearnCfsStructure(d_t, cfs, accountant, "D_T", rng, structure_progress);
      if (!learned) return learned.error();
      structure = std::move(learned->nodes);
      determined_values = std::move(learned->determined_values);
      model.noisy_structure_rows = learned->rows.noisy;
      model.entropy_sensitivity = learned->entropy_sensitivity;
      model.entropy_queries = learned->entropy_queries;
      model.epsilon_per_entropy = learned->epsilon_per_entropy;
    } else {
      const double epsilon_rows =
          ShareOf(options.model_epsilon, options.row_count_fraction > 0
                                             ? options.row_count_fraction
                                             : kPrivBayesRowCountFraction);
      auto rows = NoisyRowCountLowerBound(d_t.rows, epsilon_rows, 0.0, accountant, "D_T", rng);
      if (!rows) return rows.error();
      StructureOptions privbayes;
      privbayes.degree = options.privbayes_degree;
      privbayes.epsilon = RemainingAfter(epsilon_rows, options.model_epsilon);
      if (options.usefulness_theta > 0) {
        const double cells =
            std::floor(static_cast<double>(std::max<std::int64_t>(rows->noisy, 0)) * row_ratio *
                       parameter_epsilon / options.usefulness_theta);
        privbayes.max_table_cells = static_cast<std::uint64_t>(std::max(cells, 1.0));
      }
      privbayes.parent_buckets = bucket_maps;
      privbayes.names = names;
      privbayes.threads = options.threads == 0 ? 2 : options.threads;
      auto learned =
          LearnPrivBayesStructure(d_t, privbayes, accountant, "D_T", rng, structure_progress);
      if (!learned) return learned.error();
      structure = std::move(*learned);
    }
  }

  SubProgress parameter_progress(progress, 0.6, 1.0);
  const EncodedTable d_p = SelectRows(data, split.parameter_rows);
  ParameterOptions parameters;
  parameters.epsilon = options.model_epsilon;
  parameters.dirichlet_alpha = options.dirichlet_alpha;
  parameters.determined_values = std::move(determined_values);
  parameters.names = names;
  auto network = LearnDirichletParameters(d_p, std::move(structure), parameters, accountant, "D_P",
                                          rng, parameter_progress);
  if (!network) return network.error();
  // Quantise the tables exactly as the synthesizer samples them.
  auto compiled = SeedModel::Create(*network, data.cardinalities);
  if (!compiled) return compiled.error();
  model.network = compiled->network();
  return model;
}

}  // namespace deniable
