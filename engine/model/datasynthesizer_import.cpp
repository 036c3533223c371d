// SPDX-License-Identifier: Apache-2.0
#include "engine/model/datasynthesizer_import.h"

#include <charconv>
#include <cmath>
#include <map>
#include <sstream>

#include "engine/schema/schema_json.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

using nlohmann::json;

Error Bad(const std::string& source, const std::string& path, const std::string& what) {
  return ParseError(source + ": " + path + ": " + what);
}

std::string NumberText(const json& value) {
  if (value.is_number_integer()) return std::to_string(value.get<long long>());
  if (value.is_number_float()) {
    const double v = value.get<double>();
    if (std::floor(v) == v && std::fabs(v) < 9e15) {
      return std::to_string(static_cast<long long>(v));
    }
    std::ostringstream out;
    out.precision(17);
    out << v;
    return out.str();
  }
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

struct Imported {
  ColumnSchema column;
  ColumnDomain domain;
  std::vector<double> marginal;  // over the domain's codes (independent distribution)
  bool modelled = true;
};

Result<Imported> ImportAttribute(const std::string& name, const json& attribute,
                                 bool non_categorical_string, const std::string& source) {
  const std::string path = "attribute_description." + name;
  if (!attribute.is_object()) return Bad(source, path, "expected an object");
  Imported out;
  out.column.name = name;
  const std::string where = source + ": " + path;
  std::string type = "String";
  bool candidate_key = false;
  double missing_rate = 0;
  for (Status s : {ReadOptionalMember(attribute, "data_type", type, where),
                   ReadOptionalMember(attribute, "is_categorical", out.column.categorical, where),
                   ReadOptionalMember(attribute, "is_candidate_key", candidate_key, where),
                   ReadOptionalMember(attribute, "missing_rate", missing_rate, where)}) {
    if (!s) return s.error();
  }
  if (type == "Integer") {
    out.column.type = DataType::kInteger;
  } else if (type == "Float") {
    out.column.type = DataType::kFloat;
  } else if (type == "DateTime") {
    out.column.type = DataType::kDateTime;
    out.column.datetime_format = "%Y-%m-%d %H:%M:%S";
  } else if (type == "String" || type == "SocialSecurityNumber") {
    out.column.type = DataType::kString;
  } else {
    return Bad(source, path + ".data_type", "unknown DataSynthesizer type '" + type + "'");
  }
  if (candidate_key || type == "SocialSecurityNumber") {
    out.column.role = ColumnRole::kIdentifier;
    out.column.id_pattern = type == "SocialSecurityNumber" ? "###-##-####" : "";
    out.modelled = false;
    return out;
  }
  const json& bins = attribute.contains("distribution_bins") ? attribute["distribution_bins"] : json();
  const json& probabilities = attribute.contains("distribution_probabilities")
                                  ? attribute["distribution_probabilities"]
                                  : json();
  if (!bins.is_array() || bins.empty() || !probabilities.is_array() ||
      probabilities.size() != bins.size()) {
    return Bad(source, path, "distribution_bins and distribution_probabilities must be arrays "
                             "of the same, non-zero length");
  }
  if (!(missing_rate >= 0 && missing_rate <= 1)) {
    return Bad(source, path + ".missing_rate", "must be between 0 and 1");
  }
  ColumnDomain& domain = out.domain;
  domain.name = name;
  domain.type = out.column.type;
  domain.categories_source = DomainSource::kImported;
  domain.has_missing = missing_rate > 0;
  if (out.column.categorical) {
    domain.categorical = true;
    for (const json& bin : bins) domain.categories.push_back(NumberText(bin));
    domain.provenance = "imported from DataSynthesizer (category list read from the data, "
                        "not differentially private)";
  } else {
    domain.categorical = false;
    if (!attribute.contains("min") || !attribute.contains("max") ||
        !attribute["min"].is_number() || !attribute["max"].is_number()) {
      return Bad(source, path, "min and max must be numbers");
    }
    const double lo = attribute["min"].get<double>(), hi = attribute["max"].get<double>();
    if (!std::isfinite(lo) || !std::isfinite(hi)) return Bad(source, path, "min and max must be finite");
    if (!(lo <= hi)) return Bad(source, path, "min is greater than max");
    if (bins.size() > 65000) return Bad(source, path, "more than 65,000 bins");
    // DataSynthesizer's bins are continuous over [min, max]; integers are rounded when decoded.
    domain.SetEqualWidth(lo, hi, static_cast<int>(bins.size()), 0);
    domain.random_strings = non_categorical_string || out.column.type == DataType::kString;
    if (domain.random_strings) out.column.type = DataType::kString;
    domain.type = out.column.type;
    domain.provenance = domain.random_strings
        ? "imported from DataSynthesizer, which did not model this column: random strings "
          "with its length distribution (describe the real data with Deniable to model it)"
        : "imported from DataSynthesizer (exact min/max read from the data, not "
          "differentially private)";
  }
  double sum = 0;
  for (const json& p : probabilities) {
    if (!p.is_number() || !(p.get<double>() >= 0)) {
      return Bad(source, path + ".distribution_probabilities", "must be numbers >= 0");
    }
    sum += p.get<double>();
  }
  if (!(sum > 0) || !std::isfinite(sum)) {
    return Bad(source, path + ".distribution_probabilities", "must have a finite, positive sum");
  }
  for (const json& p : probabilities) out.marginal.push_back(p.get<double>() / sum * (1 - missing_rate));
  if (domain.has_missing) out.marginal.push_back(missing_rate);
  return out;
}

}  // namespace

bool IsDataSynthesizerDescription(const json& object) {
  return object.is_object() && object.contains("attribute_description") &&
         object.contains("meta") && !object.contains("format");
}

Result<Description> ImportDataSynthesizerDescription(const json& object,
                                                     const std::string& source) {
  const json& meta = object["meta"];
  if (!meta.is_object() || !meta.contains("all_attributes") || !meta["all_attributes"].is_array()) {
    return Bad(source, "meta.all_attributes", "missing");
  }
  std::vector<std::string> non_categorical;
  if (meta.contains("non_categorical_string_attributes") &&
      meta["non_categorical_string_attributes"].is_array()) {
    for (const json& n : meta["non_categorical_string_attributes"]) {
      if (n.is_string()) non_categorical.push_back(n.get<std::string>());
    }
  }
  Description description;
  description.source_format = "datasynthesizer";
  std::vector<Imported> imported;
  std::map<std::string, int> attribute_index;
  for (const json& name_json : meta["all_attributes"]) {
    if (!name_json.is_string()) return Bad(source, "meta.all_attributes", "expected names");
    const std::string name = name_json.get<std::string>();
    if (!object["attribute_description"].contains(name)) {
      return Bad(source, "attribute_description." + name, "missing");
    }
    const bool non_cat = std::find(non_categorical.begin(), non_categorical.end(), name) !=
                         non_categorical.end();
    auto attribute = ImportAttribute(name, object["attribute_description"][name], non_cat, source);
    if (!attribute) return attribute.error();
    description.schema.columns.push_back(attribute->column);
    if (attribute->modelled) {
      attribute_index[name] = static_cast<int>(description.domains.size());
      description.domains.push_back(attribute->domain);
    }
    if (non_cat) {
      description.warnings.push_back(
          "DataSynthesizer did not model '" + name + "' (a non-categorical string): its values "
          "are random strings, as DataSynthesizer generates them. Describe the real data with "
          "Deniable to model it with DP partition selection.");
    }
    imported.push_back(std::move(attribute.value()));
  }
  description.warnings.push_back(
      "Imported from DataSynthesizer: its description stores the exact number of input rows, "
      "the exact min/max of numeric columns and complete category lists read from the data; "
      "its differential-privacy guarantee does not cover them.");

  std::vector<bool> placed(description.domains.size(), false);
  auto add_root = [&](int attribute, std::vector<double> distribution) {
    BayesNode node;
    node.attribute = attribute;
    node.cardinality = description.domains[attribute].cardinality();
    node.probabilities = std::move(distribution);
    description.network.nodes.push_back(std::move(node));
    placed[attribute] = true;
  };
  const bool correlated = object.contains("bayesian_network") &&
                          object["bayesian_network"].is_array() &&
                          !object["bayesian_network"].empty();
  if (correlated) {
    description.mode = "correlated";
    const json& network = object["bayesian_network"];
    const json& conditionals = object.contains("conditional_probabilities")
                                   ? object["conditional_probabilities"]
                                   : json::object();
    if (!conditionals.is_object()) {
      return Bad(source, "conditional_probabilities", "expected an object");
    }
    auto cardinality_in_network = [&](int attribute) {
      return description.domains[attribute].cardinality();
    };
    // The root: first parent of the first pair.
    if (!network[0].is_array() || network[0].size() != 2 || !network[0][1].is_array() ||
        network[0][1].empty() || !network[0][1][0].is_string()) {
      return Bad(source, "bayesian_network[0]", "expected [child, [parents]]");
    }
    const std::string root = network[0][1][0].get<std::string>();
    if (!attribute_index.count(root)) return Bad(source, "bayesian_network[0]", "unknown root");
    const int root_index = attribute_index[root];
    if (!conditionals.contains(root) || !conditionals[root].is_array() ||
        conditionals[root].size() != cardinality_in_network(root_index)) {
      return Bad(source, "conditional_probabilities." + root,
                 "expected a list of " + std::to_string(cardinality_in_network(root_index)) +
                     " probabilities");
    }
    add_root(root_index, conditionals[root].get<std::vector<double>>());
    int degree = 0;
    for (std::size_t n = 0; n < network.size(); ++n) {
      const std::string path = "bayesian_network[" + std::to_string(n) + "]";
      const json& pair = network[n];
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_array()) {
        return Bad(source, path, "expected [child, [parents]]");
      }
      const std::string child = pair[0].get<std::string>();
      if (!attribute_index.count(child) || placed[attribute_index[child]]) {
        return Bad(source, path, "unknown or repeated attribute '" + child + "'");
      }
      BayesNode node;
      node.attribute = attribute_index[child];
      node.cardinality = cardinality_in_network(node.attribute);
      std::size_t configurations = 1;
      for (const json& parent : pair[1]) {
        const std::string p = parent.is_string() ? parent.get<std::string>() : "";
        if (!attribute_index.count(p) || !placed[attribute_index[p]]) {
          return Bad(source, path, "parent '" + p + "' is unknown or comes later");
        }
        node.parents.push_back(attribute_index[p]);
        node.parent_bucket_counts.push_back(cardinality_in_network(attribute_index[p]));
        configurations *= node.parent_bucket_counts.back();
      }
      node.parent_buckets.assign(node.parents.size(), {});
      degree = std::max(degree, static_cast<int>(node.parents.size()));
      const json& tables = conditionals.contains(child) ? conditionals[child] : json();
      if (!tables.is_object()) {
        return Bad(source, "conditional_probabilities." + child, "expected an object");
      }
      node.probabilities.assign(configurations * node.cardinality, 1.0 / node.cardinality);
      for (const auto& [key, distribution] : tables.items()) {
        // Key "[i, j]": the parents' bin indices.
        std::vector<std::size_t> indices;
        std::string digits;
        bool too_large = false;  // "[99999999999999999999]": std::stoul would throw
        const auto flush = [&] {
          std::size_t value = 0;
          const auto parsed = std::from_chars(digits.data(), digits.data() + digits.size(), value);
          if (parsed.ec == std::errc()) {
            indices.push_back(value);
          } else {
            too_large = true;
          }
          digits.clear();
        };
        for (char c : key) {
          if (c >= '0' && c <= '9') {
            digits += c;
          } else if (!digits.empty()) {
            flush();
          }
        }
        if (!digits.empty()) flush();
        if (too_large) {
          return Bad(source, "conditional_probabilities." + child + "." + key,
                     "a parent's bin index is out of range");
        }
        if (indices.size() != node.parents.size()) {
          return Bad(source, "conditional_probabilities." + child + "." + key,
                     "expected one index per parent");
        }
        std::size_t configuration = 0;
        for (std::size_t p = 0; p < indices.size(); ++p) {
          if (indices[p] >= node.parent_bucket_counts[p]) {
            return Bad(source, "conditional_probabilities." + child + "." + key,
                       "index out of range");
          }
          configuration = configuration * node.parent_bucket_counts[p] + indices[p];
        }
        if (!distribution.is_array() || distribution.size() != node.cardinality) {
          return Bad(source, "conditional_probabilities." + child + "." + key,
                     "expected " + std::to_string(node.cardinality) + " probabilities");
        }
        double sum = 0;
        for (const json& p : distribution) {
          if (!p.is_number() || !(p.get<double>() >= 0)) {
            return Bad(source, "conditional_probabilities." + child + "." + key,
                       "probabilities must be numbers >= 0");
          }
          sum += p.get<double>();
        }
        for (std::size_t v = 0; v < node.cardinality; ++v) {
          node.probabilities[configuration * node.cardinality + v] =
              sum > 0 ? distribution[v].get<double>() / sum : 1.0 / node.cardinality;
        }
      }
      description.network.nodes.push_back(std::move(node));
      placed[attribute_index[child]] = true;
    }
    description.parameters["degree"] = degree;
  } else {
    description.mode = "independent";
  }
  // Attributes outside the network (all of them in independent mode): roots with their marginals.
  std::size_t domain_index = 0;
  for (const Imported& attribute : imported) {
    if (!attribute.modelled) continue;
    if (!placed[domain_index]) add_root(static_cast<int>(domain_index), attribute.marginal);
    ++domain_index;
  }
  description.parameters["imported_from"] = "DataSynthesizer";
  description.guarantee["statement"] =
      "Unknown: DataSynthesizer does not record ε in its description, and its domains (min/max, "
      "category lists) and row count are not differentially private.";
  if (std::string problem = description.network.Validate(description.cardinalities());
      !problem.empty()) {
    return Bad(source, "bayesian_network", problem);
  }
  return description;
}

}  // namespace deniable
