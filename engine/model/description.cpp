// SPDX-License-Identifier: Apache-2.0
#include "engine/model/description.h"

#include <cmath>
#include <map>

#include "engine/core/atomic_file.h"
#include "engine/model/datasynthesizer_import.h"
#include "engine/model/domains.h"
#include "engine/model/geo_regions.h"
#include "engine/schema/schema_json.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

using nlohmann::json;

std::string At(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string At(const std::string& path, std::size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

Error Bad(const std::string& source, const std::string& path, const std::string& what) {
  return ParseError(source + ": " + path + ": " + what);
}

// Typed member access with JSON-path errors.
template <typename T>
Result<T> Get(const json& object, const std::string& key, const std::string& source,
              const std::string& path) {
  if (!object.is_object() || !object.contains(key)) {
    return Bad(source, At(path, key), "missing");
  }
  const json& value = object.at(key);
  try {
    if constexpr (std::is_same_v<T, bool>) {
      if (!value.is_boolean()) return Bad(source, At(path, key), "expected true or false");
    } else if constexpr (std::is_arithmetic_v<T>) {
      if (!value.is_number()) return Bad(source, At(path, key), "expected a number");
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!value.is_string()) return Bad(source, At(path, key), "expected a string");
    }
    return value.get<T>();
  } catch (const json::exception& e) {
    return Bad(source, At(path, key), e.what());
  }
}

json NetworkToJson(const BayesNet& network, const std::vector<ColumnDomain>& domains) {
  json nodes = json::array();
  for (const BayesNode& node : network.nodes) {
    json entry;
    entry["attribute"] = domains[node.attribute].name;
    json parents = json::array();
    for (int parent : node.parents) parents.push_back(domains[parent].name);
    entry["parents"] = parents;
    bool any_buckets = false;
    for (const auto& map : node.parent_buckets) any_buckets = any_buckets || !map.empty();
    if (any_buckets) {
      json buckets = json::array();
      for (const auto& map : node.parent_buckets) {
        buckets.push_back(map.empty() ? json(nullptr) : json(map));
      }
      entry["parent_buckets"] = buckets;
    }
    json tables = json::array();
    const std::size_t configurations = node.configurations();
    for (std::size_t c = 0; c < configurations; ++c) {
      tables.push_back(std::vector<double>(
          node.probabilities.begin() + static_cast<std::ptrdiff_t>(c * node.cardinality),
          node.probabilities.begin() + static_cast<std::ptrdiff_t>((c + 1) * node.cardinality)));
    }
    entry["conditionals"] = tables;
    nodes.push_back(entry);
  }
  return nodes;
}

Result<BayesNet> NetworkFromJson(const json& nodes, const std::vector<ColumnDomain>& domains,
                                 const std::string& source) {
  if (!nodes.is_array()) return Bad(source, "network", "expected an array of nodes");
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < domains.size(); ++i) index[domains[i].name] = static_cast<int>(i);
  BayesNet network;
  for (std::size_t n = 0; n < nodes.size(); ++n) {
    const std::string path = At("network", n);
    const json& entry = nodes[n];
    auto name = Get<std::string>(entry, "attribute", source, path);
    if (!name) return name.error();
    auto found = index.find(name.value());
    if (found == index.end()) {
      return Bad(source, At(path, "attribute"), "'" + name.value() + "' is not a modelled column");
    }
    BayesNode node;
    node.attribute = found->second;
    node.cardinality = domains[node.attribute].cardinality();
    if (!entry.contains("parents") || !entry["parents"].is_array()) {
      return Bad(source, At(path, "parents"), "expected an array of column names");
    }
    for (std::size_t p = 0; p < entry["parents"].size(); ++p) {
      const json& parent = entry["parents"][p];
      auto it = parent.is_string() ? index.find(parent.get<std::string>()) : index.end();
      if (it == index.end()) {
        return Bad(source, At(At(path, "parents"), p), "not a modelled column");
      }
      node.parents.push_back(it->second);
    }
    node.parent_buckets.assign(node.parents.size(), {});
    node.parent_bucket_counts.assign(node.parents.size(), 0);
    if (entry.contains("parent_buckets")) {
      const json& buckets = entry["parent_buckets"];
      if (!buckets.is_array() || buckets.size() != node.parents.size()) {
        return Bad(source, At(path, "parent_buckets"), "expected one entry per parent");
      }
      for (std::size_t p = 0; p < buckets.size(); ++p) {
        if (buckets[p].is_null()) continue;
        try {
          node.parent_buckets[p] = buckets[p].get<std::vector<std::uint32_t>>();
        } catch (const json::exception&) {
          return Bad(source, At(At(path, "parent_buckets"), p), "expected null or integers");
        }
        if (node.parent_buckets[p].size() != domains[node.parents[p]].cardinality()) {
          return Bad(source, At(At(path, "parent_buckets"), p),
                     "expected one bucket per code of the parent");
        }
      }
    }
    std::size_t configurations = 1;
    for (std::size_t p = 0; p < node.parents.size(); ++p) {
      std::uint32_t count = domains[node.parents[p]].cardinality();
      if (!node.parent_buckets[p].empty()) {
        count = 0;
        for (std::uint32_t b : node.parent_buckets[p]) count = std::max(count, b + 1);
      }
      node.parent_bucket_counts[p] = count;
      configurations *= count;
      if (configurations > 50'000'000) return Bad(source, path, "too many parent configurations");
    }
    const json& tables = entry.contains("conditionals") ? entry["conditionals"] : json();
    if (!tables.is_array() || tables.size() != configurations) {
      return Bad(source, At(path, "conditionals"),
                 "expected " + std::to_string(configurations) + " distributions (one per parent "
                 "configuration)");
    }
    node.probabilities.reserve(configurations * node.cardinality);
    for (std::size_t c = 0; c < configurations; ++c) {
      const json& row = tables[c];
      if (!row.is_array() || row.size() != node.cardinality) {
        return Bad(source, At(At(path, "conditionals"), c),
                   "expected " + std::to_string(node.cardinality) + " probabilities");
      }
      double sum = 0;
      for (const json& p : row) {
        if (!p.is_number() || !(p.get<double>() >= 0) || !std::isfinite(p.get<double>())) {
          return Bad(source, At(At(path, "conditionals"), c), "probabilities must be finite and >= 0");
        }
        sum += p.get<double>();
      }
      if (!(sum > 0)) return Bad(source, At(At(path, "conditionals"), c), "all probabilities are 0");
      // Renormalise only what is not already a distribution (keeps written tables bit-exact).
      const double scale = std::fabs(sum - 1.0) > 1e-9 ? 1.0 / sum : 1.0;
      for (const json& p : row) node.probabilities.push_back(p.get<double>() * scale);
    }
    network.nodes.push_back(std::move(node));
  }
  std::vector<std::uint32_t> cardinalities;
  for (const ColumnDomain& d : domains) cardinalities.push_back(d.cardinality());
  if (std::string problem = network.Validate(cardinalities); !problem.empty()) {
    return Bad(source, "network", problem);
  }
  return network;
}

}  // namespace

namespace {

// A geo pair's cells: the box and lattice, each cell's first corner as lattice coordinates
// (latitude lat_min + i·resolution, longitude lon_min + j·resolution), its quadtree level and
// weight, and the first cell of each region.
json GeoToJson(const GeoCells& geo) {
  json out;
  out["longitude"] = geo.longitude;
  out["resolution"] = geo.resolution;
  out["box"] = {{"lat_min", geo.box.lat_lo}, {"lat_max", geo.box.lat_hi},
                {"lon_min", geo.box.lon_lo}, {"lon_max", geo.box.lon_hi}};
  std::vector<std::uint32_t> is, js;
  for (std::uint64_t key : geo.keys) {
    std::uint32_t i = 0, j = 0;
    GeoDecomposition::Deinterleave(key, i, j);
    is.push_back(i);
    js.push_back(j);
  }
  out["cells"] = {{"i", is}, {"j", js}, {"level", geo.levels}, {"weight", geo.weights}};
  out["regions"] = std::vector<std::uint32_t>(geo.region_starts.begin(),
                                              geo.region_starts.end() - 1);
  return out;
}

template <typename T>
Result<std::vector<T>> ArrayOf(const json& object, const char* key, const std::string& path) {
  if (!object.is_object() || !object.contains(key) || !object.at(key).is_array()) {
    return ParseError(path + "." + key + ": expected an array");
  }
  std::vector<T> out;
  for (const json& item : object.at(key)) {
    if constexpr (std::is_integral_v<T>) {
      if (!item.is_number_integer() ||
          (!item.is_number_unsigned() && item.get<std::int64_t>() < 0) ||
          (item.is_number_unsigned() && item.get<std::uint64_t>() > 0xFFFFFFFFull) ||
          (!item.is_number_unsigned() && item.get<std::int64_t>() > 0xFFFFFFFFll)) {
        return ParseError(path + "." + key + ": expected integers between 0 and 2^32 - 1");
      }
    } else {
      if (!item.is_number()) return ParseError(path + "." + key + ": expected numbers");
    }
    out.push_back(item.get<T>());
  }
  return out;
}

Result<GeoCells> GeoFromJson(const json& object, const ColumnSchema& column,
                             const std::string& path) {
  if (!object.is_object()) return ParseError(path + ": expected an object");
  GeoCells geo;
  if (Status s = ReadOptionalMember(object, "longitude", geo.longitude, path); !s) {
    return s.error();
  }
  if (geo.longitude != column.geo_longitude) {
    return ParseError(path + ".longitude: the schema pairs column '" + column.name +
                      "' with '" + column.geo_longitude + "', not '" + geo.longitude + "'");
  }
  if (!object.contains("resolution") || !object["resolution"].is_number()) {
    return ParseError(path + ".resolution: expected a number");
  }
  geo.resolution = object["resolution"].get<double>();
  const json& box = object.contains("box") ? object["box"] : json();
  struct Bound {
    const char* key;
    double* out;
  };
  for (const Bound& bound : {Bound{"lat_min", &geo.box.lat_lo}, Bound{"lat_max", &geo.box.lat_hi},
                             Bound{"lon_min", &geo.box.lon_lo}, Bound{"lon_max", &geo.box.lon_hi}}) {
    if (!box.is_object() || !box.contains(bound.key) || !box[bound.key].is_number()) {
      return ParseError(path + ".box." + bound.key + ": expected a number");
    }
    *bound.out = box[bound.key].get<double>();
  }
  const json& cells = object.contains("cells") ? object["cells"] : json();
  auto is = ArrayOf<std::uint32_t>(cells, "i", path + ".cells");
  if (!is) return is.error();
  auto js = ArrayOf<std::uint32_t>(cells, "j", path + ".cells");
  if (!js) return js.error();
  auto levels = ArrayOf<std::uint32_t>(cells, "level", path + ".cells");
  if (!levels) return levels.error();
  auto weights = ArrayOf<double>(cells, "weight", path + ".cells");
  if (!weights) return weights.error();
  if (js->size() != is->size() || levels->size() != is->size() ||
      weights->size() != is->size()) {
    return ParseError(path + ".cells: i, j, level and weight must have one entry per cell");
  }
  for (std::size_t c = 0; c < is->size(); ++c) {
    geo.keys.push_back(GeoDecomposition::Interleave((*is)[c], (*js)[c]));
  }
  geo.levels = std::move(levels.value());
  geo.weights = std::move(weights.value());
  auto regions = ArrayOf<std::uint32_t>(object, "regions", path);
  if (!regions) return regions.error();
  geo.region_starts = std::move(regions.value());
  geo.region_starts.push_back(static_cast<std::uint32_t>(geo.keys.size()));
  if (std::string problem = ValidateGeoCells(geo); !problem.empty()) {
    return ParseError(path + ": " + problem);
  }
  return geo;
}

}  // namespace

json DomainToJson(const ColumnDomain& domain, const ColumnSchema* column) {
  json out;
  out["source"] = DomainSourceName(domain.categories_source);
  out["provenance"] = domain.provenance;
  out["has_missing"] = domain.has_missing;
  if (domain.is_geo()) {
    out["geo"] = GeoToJson(*domain.geo);
  } else if (domain.categorical) {
    out["categories"] = domain.categories;
    out["has_other"] = domain.has_other;
    if (domain.unknown != UnknownValues::kOther) {
      out["unknown_values"] = UnknownValuesName(domain.unknown);
    }
    if (domain.has_other) out["other_label"] = domain.other_label;
  } else {
    if (column != nullptr && column->type == DataType::kDateTime) {
      std::string lo, hi;
      FormatNumericCell(domain.lo, *column, lo);
      FormatNumericCell(domain.hi, *column, hi);
      out["min"] = lo;
      out["max"] = hi;
    } else {
      out["min"] = domain.lo;
      out["max"] = domain.hi;
    }
    out["step"] = domain.step;
    out["edges"] = domain.edges;
    if (!domain.leaf_edges.empty()) {
      out["leaf_edges"] = domain.leaf_edges;
      out["leaf_weights"] = domain.leaf_weights;
    }
    if (domain.random_strings) out["random_strings"] = true;
  }
  return out;
}

namespace {

Result<std::vector<double>> NumberArray(const json& object, const char* key,
                                        const std::string& path) {
  try {
    return object.at(key).get<std::vector<double>>();
  } catch (const json::exception&) {
    return ParseError(path + "." + key + ": expected an array of numbers");
  }
}

// Version 1 numeric domains: `bins` equal-width bins over [min, max] (integer_steps: over
// [min, max + 1)) and optional within-bin sub-cell weights (one per integer when sub_per_bin is
// 0 and the range has at most 4,096 integers, else sub_per_bin equal cells per bin). Converted to
// the explicit layout, the sub-cells becoming leaves (on a lattice snapped to its points, cells
// that snap together merged).
Status ReadVersion1Numeric(const json& object, const std::string& path, ColumnDomain& domain) {
  bool integer_steps = false;
  int sub_per_bin = 0;
  for (Status read : {ReadOptionalMember(object, "integer_steps", integer_steps, path),
                      ReadOptionalMember(object, "sub_per_bin", sub_per_bin, path)}) {
    if (!read) return read;
  }
  if (!object.contains("bins") || !object["bins"].is_number_integer() ||
      object["bins"].get<long long>() < 1 || object["bins"].get<long long>() > 65000) {
    return ParseError(path + ".bins: expected an integer between 1 and 65000");
  }
  if (integer_steps && !(std::fabs(domain.lo) <= kMaxExactInteger &&
                         std::fabs(domain.hi) <= kMaxExactInteger)) {
    return ParseError(path + ": an integer domain's min and max must lie within ±2^53 "
                      "(beyond that a double cannot hold every integer)");
  }
  const double lo = domain.lo, hi = domain.hi;
  const int bins = object["bins"].get<int>();
  // The v1 layout, before snapping: bin i = [lo + i·w, lo + (i+1)·w), w = span / bins.
  const double top = integer_steps ? hi + 1 : hi;
  auto v1_edge = [&](double position) { return lo + (top - lo) * position / bins; };
  domain.SetEqualWidth(lo, hi, integer_steps ? std::min<double>(bins, hi - lo + 1) : bins,
                       integer_steps ? 1 : 0);
  if (!object.contains("sub_weights")) return OkStatus();
  auto weights = NumberArray(object, "sub_weights", path);
  if (!weights) return weights.error();
  constexpr double kV1MaxSubCells = 4096;
  const bool per_integer = sub_per_bin == 0 && integer_steps && hi - lo + 1 <= kV1MaxSubCells;
  const std::size_t expected = sub_per_bin > 0 ? static_cast<std::size_t>(bins) *
                                                     static_cast<std::size_t>(sub_per_bin)
                               : per_integer   ? static_cast<std::size_t>(hi - lo) + 1
                                               : 0;
  if (sub_per_bin < 0 || sub_per_bin > 100000 || weights->size() != expected) {
    return ParseError(path + ".sub_weights: expected " + std::to_string(expected) +
                      " weights for this domain");
  }
  std::vector<double> leaf_edges, leaf_weights;
  for (std::size_t cell = 0; cell <= expected; ++cell) {
    double edge = per_integer ? lo + static_cast<double>(cell)
                              : v1_edge(static_cast<double>(cell) / sub_per_bin);
    if (cell == expected) edge = domain.edges.back();
    if (domain.on_lattice()) edge = domain.PointValue(domain.FirstPointIndex(edge));
    if (leaf_edges.empty() || edge > leaf_edges.back()) {
      leaf_edges.push_back(edge);
      if (cell < expected) leaf_weights.push_back(0);
    }
    if (cell < expected) {
      const double w = (*weights)[cell];
      if (!(w >= 0) || !std::isfinite(w)) {
        return ParseError(path + ".sub_weights: weights must be finite and >= 0");
      }
      leaf_weights.back() += w;
    }
  }
  leaf_weights.resize(leaf_edges.size() - 1);
  // A bin edge that no snapped cell edge produced splits its leaf in two (weight halved).
  for (double edge : domain.edges) {
    auto at = std::lower_bound(leaf_edges.begin(), leaf_edges.end(), edge);
    if (at == leaf_edges.end() || *at != edge) {
      const auto leaf = static_cast<std::size_t>(at - leaf_edges.begin()) - 1;
      leaf_edges.insert(at, edge);
      leaf_weights.insert(leaf_weights.begin() + static_cast<std::ptrdiff_t>(leaf) + 1,
                          leaf_weights[leaf] / 2);
      leaf_weights[leaf] /= 2;
    }
  }
  if (Status s = domain.SetLeaves(std::move(leaf_edges), std::move(leaf_weights)); !s) {
    return ParseError(path + ".sub_weights: " + s.error().message);
  }
  return OkStatus();
}

}  // namespace

Result<ColumnDomain> DomainFromJson(const json& object, const ColumnSchema& column,
                                    const std::string& path, int version) {
  ColumnDomain domain;
  domain.name = column.name;
  domain.type = column.type;
  if (!object.is_object()) return ParseError(path + ": expected an object");
  std::string source_name = "imported";
  domain.other_label = "Other";
  for (Status read : {ReadOptionalMember(object, "source", source_name, path),
                      ReadOptionalMember(object, "provenance", domain.provenance, path),
                      ReadOptionalMember(object, "has_missing", domain.has_missing, path),
                      ReadOptionalMember(object, "has_other", domain.has_other, path),
                      ReadOptionalMember(object, "other_label", domain.other_label, path),
                      ReadOptionalMember(object, "random_strings", domain.random_strings, path)}) {
    if (!read) return read.error();
  }
  std::string unknown_values;
  if (Status s = ReadOptionalMember(object, "unknown_values", unknown_values, path); !s) {
    return s.error();
  }
  for (UnknownValues u : {UnknownValues::kNearestPrefix, UnknownValues::kNearestValue}) {
    if (unknown_values == UnknownValuesName(u)) domain.unknown = u;
  }
  domain.categories_source = source_name == "public" ? DomainSource::kPublic
                             : source_name == "dp"   ? DomainSource::kDp
                                                     : DomainSource::kImported;
  domain.categorical = object.contains("categories");
  if (object.contains("geo") != !column.geo_longitude.empty()) {
    return ParseError(path + (column.geo_longitude.empty()
                                  ? ".geo: column '" + column.name + "' is in no geo pair"
                                  : ": column '" + column.name + "' is a geo pair with '" +
                                        column.geo_longitude + "': expected a \"geo\" domain"));
  }
  if (object.contains("geo")) {
    if (domain.categorical) return ParseError(path + ": a geo domain has no categories");
    auto geo = GeoFromJson(object["geo"], column, path + ".geo");
    if (!geo) return geo.error();
    if (Status s = domain.SetGeo(std::move(geo.value())); !s) {
      return ParseError(path + ".geo: " + s.error().message);
    }
  } else if (domain.categorical) {
    try {
      domain.categories = object.at("categories").get<std::vector<std::string>>();
    } catch (const json::exception&) {
      return ParseError(path + ".categories: expected an array of strings");
    }
  } else {
    auto bound = [&](const char* key, double& out) -> Status {
      if (!object.contains(key)) return ParseError(path + "." + key + ": missing");
      const json& value = object.at(key);
      if (value.is_number()) {
        out = value.get<double>();
      } else if (value.is_string() && column.type == DataType::kDateTime) {
        auto parsed = ParseNumericCell(value.get<std::string>(), column);
        if (!parsed) return ParseError(path + "." + key + ": not a date-time in the column's format");
        out = *parsed;
      } else {
        return ParseError(path + "." + key + ": expected a number");
      }
      if (!std::isfinite(out)) return ParseError(path + "." + key + ": must be finite");
      return OkStatus();
    };
    if (version == 1) {
      if (auto s = bound("min", domain.lo); !s) return s.error();
      if (auto s = bound("max", domain.hi); !s) return s.error();
      if (domain.hi < domain.lo) return ParseError(path + ": min is greater than max");
      if (Status s = ReadVersion1Numeric(object, path, domain); !s) return s.error();
    } else {
      double step = 0;
      if (Status s = ReadOptionalMember(object, "step", step, path); !s) return s.error();
      if (!object.contains("edges")) return ParseError(path + ".edges: missing");
      auto edges = NumberArray(object, "edges", path);
      if (!edges) return edges.error();
      if (Status s = domain.SetBins(std::move(edges.value()), step); !s) {
        return ParseError(path + ".edges: " + s.error().message);
      }
      if (object.contains("leaf_edges") || object.contains("leaf_weights")) {
        auto leaf_edges = NumberArray(object, "leaf_edges", path);
        if (!leaf_edges) return leaf_edges.error();
        auto leaf_weights = NumberArray(object, "leaf_weights", path);
        if (!leaf_weights) return leaf_weights.error();
        if (Status s = domain.SetLeaves(std::move(leaf_edges.value()),
                                        std::move(leaf_weights.value()));
            !s) {
          return ParseError(path + ".leaf_edges: " + s.error().message);
        }
      }
    }
    if (std::string problem = domain.Validate(); !problem.empty()) {
      return ParseError(path + ": " + problem);
    }
  }
  if (domain.cardinality() == 0 || domain.cardinality() > kMaxCardinality) {
    return ParseError(path + ": the domain has no codes or too many");
  }
  return domain;
}

json DescriptionToJson(const Description& description) {
  json out;
  out["format"] = "deniable-description";
  out["version"] = kDescriptionVersion;
  out["mode"] = description.mode;
  if (description.reproducible_not_private) {
    out["reproducible_not_private"] = true;
    out["warning"] = "made with a fixed seed: reproducible, NOT a private release";
  }
  if (description.source_format != "deniable") out["imported_from"] = description.source_format;
  out["parameters"] = description.parameters;
  out["schema"] = SchemaToJson(description.schema, /*include_stats=*/false);
  const std::vector<int> modelled = ModelledColumns(description.schema);
  json domains = json::object();
  for (std::size_t k = 0; k < description.domains.size() && k < modelled.size(); ++k) {
    domains[description.domains[k].name] =
        DomainToJson(description.domains[k], &description.schema.columns[modelled[k]]);
  }
  out["domains"] = domains;
  out["network"] = NetworkToJson(description.network, description.domains);
  out["privacy"] = description.privacy;
  out["guarantee"] = description.guarantee;
  if (!description.warnings.empty()) out["warnings"] = description.warnings;
  return out;
}

Result<Description> DescriptionFromJson(const json& object, const std::string& source) {
  if (!object.is_object()) return ParseError(source + ": expected a JSON object");
  if (!object.contains("format") || object["format"] != "deniable-description") {
    return ParseError(source + ": format: not a deniable description file");
  }
  auto version = Get<int>(object, "version", source, "");
  if (!version) return version.error();
  if (version.value() != kDescriptionVersion && version.value() != 1) {
    return ParseError(source + ": version: unsupported version " +
                      std::to_string(version.value()) + " (this build reads versions 1 to " +
                      std::to_string(kDescriptionVersion) + ")");
  }
  Description description;
  auto mode = Get<std::string>(object, "mode", source, "");
  if (!mode) return mode.error();
  description.mode = mode.value();
  // parameters, privacy and guarantee are shown to the reader, never used to generate: an
  // entry of the wrong kind is dropped (the display code tolerates any JSON), not an error.
  auto object_or_empty = [&](const char* key) {
    return object.contains(key) && object[key].is_object() ? object[key] : json::object();
  };
  description.parameters = object_or_empty("parameters");
  description.privacy = object_or_empty("privacy");
  description.guarantee = object_or_empty("guarantee");
  auto not_private = OptionalMember<bool>(object, "reproducible_not_private", false, "");
  if (!not_private) return not_private.error().WithContext(source);
  description.reproducible_not_private = not_private.value();
  auto imported_from =
      OptionalMember<std::string>(object, "imported_from", std::string("deniable"), "");
  if (!imported_from) return imported_from.error().WithContext(source);
  description.source_format = imported_from.value();
  if (object.contains("warnings") && object["warnings"].is_array()) {
    for (const json& w : object["warnings"]) {
      if (w.is_string()) description.warnings.push_back(w.get<std::string>());
    }
  }
  if (!object.contains("schema") || !object["schema"].is_object() ||
      !object["schema"].contains("columns") || !object["schema"]["columns"].is_array()) {
    return ParseError(source + ": schema.columns: missing");
  }
  Schema base;
  for (const json& column : object["schema"]["columns"]) {
    ColumnSchema c;
    c.name = column.is_object() && column.contains("name") && column["name"].is_string()
                 ? column["name"].get<std::string>()
                 : "";
    base.columns.push_back(c);
  }
  auto schema = ApplySchemaJson(base, object["schema"], source);
  if (!schema) return schema.error();
  description.schema = std::move(schema.value());
  const json& domains = object.contains("domains") ? object["domains"] : json();
  for (int index : ModelledColumns(description.schema)) {
    const ColumnSchema& column = description.schema.columns[index];
    if (!domains.is_object() || !domains.contains(column.name)) {
      return ParseError(source + ": domains." + column.name + ": missing (every modelled "
                        "column needs a domain)");
    }
    auto domain = DomainFromJson(domains[column.name], column,
                                 source + ": domains." + column.name, version.value());
    if (!domain) return domain.error();
    description.domains.push_back(std::move(domain.value()));
  }
  auto network = NetworkFromJson(object.contains("network") ? object["network"] : json(),
                                 description.domains, source);
  if (!network) return network.error();
  description.network = std::move(network.value());
  return description;
}

Result<Description> ReadDescription(const std::string& path) {
  auto json_value = ReadJsonFile(path);
  if (!json_value) return json_value.error();
  // The readers check every member they use; this net turns a check we missed into a
  // bad-input error naming the file instead of an unexplained failure.
  try {
    if (IsDataSynthesizerDescription(json_value.value())) {
      return ImportDataSynthesizerDescription(json_value.value(), path);
    }
    return DescriptionFromJson(json_value.value(), path);
  } catch (const json::exception& e) {
    return ParseError(path + ": unexpected content: " + e.what());
  }
}

Status WriteDescription(const std::string& path, const Description& description) {
  return WriteFileAtomically(path, DescriptionToJson(description).dump(2) + "\n");
}

}  // namespace deniable
