// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/geo_pairs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

std::string Quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool IsCoordinateType(const ColumnSchema& column) {
  return column.type == DataType::kInteger || column.type == DataType::kFloat;
}

// Lower-case words of a name (see IsLatitudeName).
std::vector<std::string> Words(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) words.push_back(word);
    word.clear();
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (!std::isalnum(c)) {
      flush();
      continue;
    }
    if (!word.empty()) {
      const auto previous = static_cast<unsigned char>(name[i - 1]);
      const bool camel = std::islower(previous) && std::isupper(c);
      const bool digit_change = (std::isdigit(previous) != 0) != (std::isdigit(c) != 0);
      if (camel || digit_change) flush();
    }
    word.push_back(static_cast<char>(std::tolower(c)));
  }
  flush();
  return words;
}

// Whether the first or last word of `name` is one of `keys`; the other words joined by '_'.
bool HasCoordinateWord(std::string_view name, std::initializer_list<std::string_view> keys,
                       std::string* stem) {
  std::vector<std::string> words = Words(name);
  if (words.empty()) return false;
  auto is_key = [&](const std::string& word) {
    return std::find(keys.begin(), keys.end(), word) != keys.end();
  };
  if (is_key(words.back())) {
    words.pop_back();
  } else if (is_key(words.front())) {
    words.erase(words.begin());
  } else {
    return false;
  }
  if (stem != nullptr) {
    stem->clear();
    for (const std::string& word : words) *stem += (stem->empty() ? "" : "_") + word;
  }
  return true;
}

// Whether every value of the column that parses lies in [lo, hi], and there is one.
bool ValuesWithin(const RawColumn& raw, const ColumnSchema& column, double lo, double hi) {
  const std::vector<double> values = NumericDictionaryValues(raw, column);
  bool any = false;
  for (double value : values) {
    if (std::isnan(value)) continue;
    if (value < lo || value > hi) return false;
    any = true;
  }
  return any;
}

}  // namespace

std::string GeoPairProblem(const Schema& schema, std::size_t latitude) {
  const ColumnSchema& lat = schema.columns[latitude];
  if (lat.geo_longitude.empty()) return "";
  const int found = schema.ColumnIndex(lat.geo_longitude);
  const std::string pair = "geo pair " + Quoted(lat.name) + " + " + Quoted(lat.geo_longitude);
  if (found < 0) {
    return "column " + Quoted(lat.name) + " names " + Quoted(lat.geo_longitude) +
           " as its longitude, but there is no column " + Quoted(lat.geo_longitude);
  }
  const auto longitude = static_cast<std::size_t>(found);
  if (longitude == latitude) {
    return "column " + Quoted(lat.name) + " cannot be its own longitude: a geo pair joins two "
           "different columns";
  }
  const ColumnSchema& lon = schema.columns[longitude];
  for (const ColumnSchema* column : {&lat, &lon}) {
    if (!IsCoordinateType(*column)) {
      return pair + ": column " + Quoted(column->name) + " is " + DataTypeName(column->type) +
             "; both columns of a geo pair must be Integer or Float";
    }
    if (!column->is_modelled()) {
      return pair + ": column " + Quoted(column->name) + " has role " +
             ColumnRoleName(column->role) + "; both columns of a geo pair must be modelled "
             "(attribute, quasi-identifier or sensitive), or remove the pair (\"geo\": null on " +
             Quoted(lat.name) + ")";
    }
    if (column->public_categories) {
      return pair + ": column " + Quoted(column->name) + " declares public categories, but a "
             "geo pair is modelled by the cells of a quadtree: clear them (\"public\": "
             "{\"categories\": null}) or remove the pair (\"geo\": null on " + Quoted(lat.name) +
             ")";
    }
  }
  if (!lon.geo_longitude.empty()) {
    return pair + ": column " + Quoted(lon.name) + " is itself the latitude of a geo pair (with " +
           Quoted(lon.geo_longitude) + "); a column can be in one pair only";
  }
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    const ColumnSchema& other = schema.columns[i];
    if (i == latitude || other.geo_longitude.empty()) continue;
    if (i < latitude && other.geo_longitude == lon.name) {
      return pair + ": column " + Quoted(lon.name) + " is already the longitude of " +
             Quoted(other.name) + "; a column can be in one pair only";
    }
    if (other.geo_longitude == lat.name) {
      return pair + ": column " + Quoted(lat.name) + " is already the longitude of " +
             Quoted(other.name) + "; a column can be in one pair only";
    }
  }
  return "";
}

std::vector<GeoPair> GeoPairs(const Schema& schema) {
  std::vector<GeoPair> pairs;
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    if (schema.columns[i].geo_longitude.empty() || !GeoPairProblem(schema, i).empty()) continue;
    pairs.push_back(GeoPair{
        i, static_cast<std::size_t>(schema.ColumnIndex(schema.columns[i].geo_longitude))});
  }
  return pairs;
}

int GeoLatitudeOf(const Schema& schema, std::size_t index) {
  const std::string& name = schema.columns[index].name;
  for (std::size_t i = 0; i < schema.columns.size(); ++i) {
    if (i != index && schema.columns[i].geo_longitude == name &&
        GeoPairProblem(schema, i).empty()) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

bool IsLatitudeName(std::string_view name, std::string* stem) {
  return HasCoordinateWord(name, {"lat", "latitude"}, stem);
}

bool IsLongitudeName(std::string_view name, std::string* stem) {
  return HasCoordinateWord(name, {"lon", "lng", "long", "longitude"}, stem);
}

std::vector<GeoPair> DetectGeoPairs(const RawTable& table, const Schema& schema) {
  // Per stem, the candidate columns of each kind (by name and type only; values checked below).
  std::map<std::string, std::vector<std::size_t>> latitudes, longitudes;
  const std::size_t columns = std::min(table.num_columns(), schema.columns.size());
  for (std::size_t i = 0; i < columns; ++i) {
    const ColumnSchema& column = schema.columns[i];
    if (!IsCoordinateType(column) || column.categorical || !column.is_modelled() ||
        column.public_categories) {
      continue;
    }
    std::string stem;
    if (IsLatitudeName(column.name, &stem)) {
      latitudes[stem].push_back(i);
    } else if (IsLongitudeName(column.name, &stem)) {
      longitudes[stem].push_back(i);
    }
  }
  std::vector<GeoPair> pairs;
  for (const auto& [stem, lats] : latitudes) {
    const auto lons = longitudes.find(stem);
    if (lats.size() != 1 || lons == longitudes.end() || lons->second.size() != 1) continue;
    const GeoPair pair{lats.front(), lons->second.front()};
    if (ValuesWithin(table.columns[pair.latitude], schema.columns[pair.latitude], -90, 90) &&
        ValuesWithin(table.columns[pair.longitude], schema.columns[pair.longitude], -180, 180)) {
      pairs.push_back(pair);
    }
  }
  std::sort(pairs.begin(), pairs.end(),
            [](const GeoPair& a, const GeoPair& b) { return a.latitude < b.latitude; });
  return pairs;
}

bool FirstValueOutside(const RawTable& table, std::size_t index, const ColumnSchema& column,
                       double lo, double hi, std::string& text, std::uint64_t& line) {
  const RawColumn& raw = table.columns[index];
  const std::vector<double> values = NumericDictionaryValues(raw, column);
  std::uint32_t first = kMissingCode;
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (std::isnan(values[k]) || (values[k] >= lo && values[k] <= hi)) continue;
    if (k < raw.first_row.size() && (first == kMissingCode || raw.first_row[k] < first)) {
      first = raw.first_row[k];
      text = raw.dictionary[k];
    }
  }
  if (first == kMissingCode) return false;
  line = first < table.row_line.size() ? table.row_line[first] : 0;
  return true;
}

}  // namespace deniable
