// SPDX-License-Identifier: Apache-2.0
// The dataset description file: everything needed to generate synthetic data without the real
// data, and everything needed to defend the release. Format "deniable-description" version 2,
// documented in docs/description-format.md:
//   schema (public parts only: names, types, roles, formats — never the data-derived stats),
//   domains with their provenance, the mode and its parameters, the privacy ledger and the
//   guarantee, the network and its conditional distributions.
// It deliberately does NOT contain the number of input rows (DataSynthesizer's `num_tuples`
// leaks it) nor any other exact statistic of the input.
// ReadDescription also imports DataSynthesizer's description files (datasynthesizer_import.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/core/result.h"
#include "engine/model/bayes_net.h"
#include "engine/model/domain.h"
#include "engine/schema/schema.h"

namespace deniable {

// Version 2: numeric domains with explicit (non-uniform) bin edges, a lattice step and leaves.
// Version 1 files (equal-width bins, sub-cell weights) are still read.
inline constexpr int kDescriptionVersion = 2;

struct Description {
  std::string mode;                   // random | independent | correlated | deniable
  nlohmann::json parameters = nlohmann::json::object();  // the mode's parameters
  Schema schema;                      // stats are never serialised
  std::vector<ColumnDomain> domains;  // one per modelled column (ModelledColumns order)
  BayesNet network;                   // over the modelled columns
  nlohmann::json privacy = nlohmann::json::object();     // PrivacyAccountant::ToJson()
  nlohmann::json guarantee = nlohmann::json::object();   // {"epsilon","delta","statement",...}
  bool reproducible_not_private = false;  // made with a seeded generator (--seed)
  std::string source_format = "deniable";  // or "datasynthesizer" when imported
  std::vector<std::string> warnings;

  std::vector<std::uint32_t> cardinalities() const {
    std::vector<std::uint32_t> out;
    for (const ColumnDomain& domain : domains) out.push_back(domain.cardinality());
    return out;
  }
};

nlohmann::json DescriptionToJson(const Description& description);
// `source` names the file in messages; errors name the JSON path.
Result<Description> DescriptionFromJson(const nlohmann::json& json, const std::string& source);

// Reads either format (deniable or DataSynthesizer), validates it completely (domains match
// the network, tables sized and normalised) so that `generate` cannot crash on it.
Result<Description> ReadDescription(const std::string& path);
Status WriteDescription(const std::string& path, const Description& description);

// JSON helpers shared with the DataSynthesizer importer.
nlohmann::json DomainToJson(const ColumnDomain& domain, const ColumnSchema* column);
Result<ColumnDomain> DomainFromJson(const nlohmann::json& json, const ColumnSchema& column,
                                    const std::string& path,
                                    int version = kDescriptionVersion);

}  // namespace deniable
