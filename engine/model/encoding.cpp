// SPDX-License-Identifier: Apache-2.0
#include "engine/model/encoding.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "engine/io/csv_writer.h"
#include "engine/model/band_pairs.h"
#include "engine/model/domains.h"
#include "engine/model/geo_regions.h"
#include "engine/model/id_generator.h"
#include "engine/schema/typed_values.h"

namespace deniable {
namespace {

// The code of a value that has no code of its own: missing if the domain has one, else other,
// else code 0 (the domain was declared or selected without them, so such rows are rare).
Code FallbackCode(const ColumnDomain& domain, bool is_missing) {
  if (is_missing && domain.has_missing) return static_cast<Code>(domain.missing_code());
  if (!is_missing && domain.has_other) return static_cast<Code>(domain.other_code());
  if (domain.has_missing) return static_cast<Code>(domain.missing_code());
  if (domain.has_other) return static_cast<Code>(domain.other_code());
  if (!domain.categorical && domain.bins > 0) return static_cast<Code>(domain.bins / 2);
  return 0;
}

// The category (`sorted` in byte order, non-empty) sharing the longest prefix with `text`:
// one of the two categories next to where `text` would be inserted (the earlier on a tie).
Code NearestByPrefix(const std::vector<std::string>& sorted, std::string_view text) {
  auto common = [text](const std::string& other) {
    std::size_t n = 0;
    while (n < text.size() && n < other.size() && text[n] == other[n]) ++n;
    return n;
  };
  const auto after = std::lower_bound(sorted.begin(), sorted.end(), text);
  if (after == sorted.begin()) return 0;
  const auto before = after - 1;
  if (after == sorted.end() || common(*before) >= common(*after)) {
    return static_cast<Code>(before - sorted.begin());
  }
  return static_cast<Code>(after - sorted.begin());
}

// Per dictionary entry of `raw`: its code under `domain`.
std::vector<Code> DictionaryCodes(const RawColumn& raw, const ColumnSchema& column,
                                  const ColumnDomain& domain) {
  std::vector<Code> codes(raw.dictionary.size());
  if (domain.categorical) {
    if (column.is_numeric()) {
      std::map<double, Code> by_number;
      for (std::size_t c = 0; c < domain.categories.size(); ++c) {
        if (auto number = ParseNumericCell(domain.categories[c], column)) {
          by_number.emplace(*number, static_cast<Code>(c));
        }
      }
      const std::vector<double> parsed = NumericDictionaryValues(raw, column);
      for (std::size_t i = 0; i < parsed.size(); ++i) {
        auto it = std::isnan(parsed[i]) ? by_number.end() : by_number.find(parsed[i]);
        if (it != by_number.end()) {
          codes[i] = it->second;
        } else if (!std::isnan(parsed[i]) && domain.unknown == UnknownValues::kNearestValue &&
                   !by_number.empty()) {
          // The nearest kept value (the smaller one on a tie).
          auto above = by_number.lower_bound(parsed[i]);
          if (above == by_number.end()) {
            codes[i] = std::prev(above)->second;
          } else if (above == by_number.begin()) {
            codes[i] = above->second;
          } else {
            auto below = std::prev(above);
            codes[i] = parsed[i] - below->first <= above->first - parsed[i] ? below->second
                                                                            : above->second;
          }
        } else {
          codes[i] = FallbackCode(domain, std::isnan(parsed[i]));
        }
      }
    } else {
      std::unordered_map<std::string_view, Code> by_text;
      by_text.reserve(domain.categories.size() * 2);
      for (std::size_t c = 0; c < domain.categories.size(); ++c) {
        by_text.emplace(domain.categories[c], static_cast<Code>(c));
      }
      for (std::size_t i = 0; i < raw.dictionary.size(); ++i) {
        auto it = by_text.find(raw.dictionary[i]);
        if (it != by_text.end()) {
          codes[i] = it->second;
        } else if (domain.unknown == UnknownValues::kNearestPrefix && !domain.categories.empty()) {
          codes[i] = NearestByPrefix(domain.categories, raw.dictionary[i]);
        } else {
          codes[i] = FallbackCode(domain, false);
        }
      }
    }
    return codes;
  }
  const std::vector<double> parsed = NumericDictionaryValues(raw, column);
  for (std::size_t i = 0; i < parsed.size(); ++i) {
    codes[i] = std::isnan(parsed[i]) ? FallbackCode(domain, true)
                                     : static_cast<Code>(domain.BinOf(parsed[i]));
  }
  return codes;
}

// One output column, decoded: either texts per code (categorical), numbers per row, or texts
// per row (identifiers).
struct DecodedColumn {
  enum class Kind { kLabels, kNumbers, kTexts } kind = Kind::kLabels;
  const ColumnSchema* schema = nullptr;
  const std::vector<Code>* codes = nullptr;   // kLabels
  std::vector<std::string> labels;            // kLabels: per code ("" unused for missing)
  std::vector<bool> label_missing;            // kLabels: per code
  std::vector<double> numbers;                // kNumbers: per row, NaN = missing
  std::vector<std::string> texts;             // kTexts: per row
};

// Draws values inside a numeric domain's bins: a leaf of the bin in proportion to its weight
// (a bin whose leaves all weigh zero, or a domain without leaves, draws uniformly), then a value
// uniformly inside the leaf — a lattice point on a lattice, so integers stay integers, floats
// keep their decimals and date-times their resolution.
class NumericDecoder {
 public:
  explicit NumericDecoder(const ColumnDomain& domain) : domain_(domain) {
    cumulative_.assign(domain.leaf_weights.size(), 0.0);
    for (std::uint32_t bin = 0; bin < static_cast<std::uint32_t>(domain.bins); ++bin) {
      const auto [first, last] = domain.LeavesOfBin(bin);
      double running = 0;
      for (std::size_t leaf = first; leaf < last; ++leaf) {
        running += domain.leaf_weights[leaf];
        cumulative_[leaf] = running;
      }
    }
  }

  double Draw(std::uint32_t bin, Rng& rng) const {
    auto [first, last] = domain_.LeavesOfBin(bin);
    double left = domain_.BinLeft(bin), right = domain_.BinRight(bin);
    if (last > first) {
      std::size_t leaf;
      if (cumulative_[last - 1] > 0) {
        const double target = UniformUnit(rng) * cumulative_[last - 1];
        leaf = LeafAt(first, last, target);
      } else {
        leaf = first + UniformBelow(rng, last - first);
      }
      left = domain_.leaf_edges[leaf];
      right = domain_.leaf_edges[leaf + 1];
    }
    return InInterval(left, right, bin, rng);
  }

  // The value at within-bin quantile u ∈ [0, 1) of the same distribution (the inverse of what
  // Draw samples: a leaf by its cumulative weight, then the point at the remaining fraction of
  // the leaf). For band pairs (band_pairs.h), whose rows draw u from their label's slice.
  double DrawAt(std::uint32_t bin, double u) const {
    auto [first, last] = domain_.LeavesOfBin(bin);
    double left = domain_.BinLeft(bin), right = domain_.BinRight(bin);
    double fraction = u;
    if (last > first) {
      std::size_t leaf;
      const double total = cumulative_[last - 1];
      if (total > 0) {
        const double target = u * total;
        leaf = LeafAt(first, last, target);
        const double before = leaf > first ? cumulative_[leaf - 1] : 0.0;
        const double weight = cumulative_[leaf] - before;
        fraction = weight > 0 ? (target - before) / weight : 0.5;
      } else {
        const double position = u * static_cast<double>(last - first);
        const double whole = std::min(std::floor(position), static_cast<double>(last - first - 1));
        leaf = first + static_cast<std::size_t>(whole);
        fraction = position - whole;
      }
      left = domain_.leaf_edges[leaf];
      right = domain_.leaf_edges[leaf + 1];
    }
    return AtFraction(left, right, bin, std::clamp(fraction, 0.0, std::nextafter(1.0, 0.0)));
  }

 private:
  // The leaf of [first, last) (a bin's) whose running weight first exceeds `target`.
  std::size_t LeafAt(std::size_t first, std::size_t last, double target) const {
    const auto begin = cumulative_.begin();
    const auto leaf = static_cast<std::size_t>(
        std::upper_bound(begin + static_cast<std::ptrdiff_t>(first),
                         begin + static_cast<std::ptrdiff_t>(last), target) - begin);
    return std::min(leaf, last - 1);
  }

  // On a lattice: the points [first, first + count) of [left, right), or the bin's own points
  // when the interval holds none.
  std::pair<double, double> Points(double left, double right, std::uint32_t bin) const {
    double first = domain_.FirstPointIndex(left);
    double count = domain_.FirstPointIndex(right) - first;
    if (!(count >= 1)) {
      first = domain_.FirstPointIndex(domain_.BinLeft(bin));
      count = std::max(1.0, domain_.FirstPointIndex(domain_.BinRight(bin)) - first);
    }
    return {first, count};
  }

  // The value at `fraction` ∈ [0, 1) of [left, right) (DrawAt's counterpart of InInterval).
  double AtFraction(double left, double right, std::uint32_t bin, double fraction) const {
    if (domain_.on_lattice()) {
      const auto [first, count] = Points(left, right, bin);
      const double offset = std::min(std::floor(fraction * count), count - 1);
      return std::clamp(domain_.PointValue(first + offset), domain_.lo, domain_.hi);
    }
    double value = left + fraction * (right - left);
    if (domain_.type == DataType::kInteger) value = std::round(value);
    return std::clamp(value, domain_.lo, domain_.hi);
  }

  // A value drawn uniformly in [left, right) (the bin's own points when the interval holds no
  // lattice point).
  double InInterval(double left, double right, std::uint32_t bin, Rng& rng) const {
    if (domain_.on_lattice()) {
      const auto [first, count] = Points(left, right, bin);
      const double offset =
          count >= 0x1p63 ? std::floor(UniformUnit(rng) * count)
                          : static_cast<double>(UniformBelow(rng, static_cast<std::uint64_t>(count)));
      return std::clamp(domain_.PointValue(first + offset), domain_.lo, domain_.hi);
    }
    double value = left + UniformUnit(rng) * (right - left);
    if (domain_.type == DataType::kInteger) value = std::round(value);
    return std::clamp(value, domain_.lo, domain_.hi);
  }

  const ColumnDomain& domain_;
  std::vector<double> cumulative_;  // per leaf: running weight within its bin
};

// A geo pair's codes, per row: the region of (lat, lon), or the missing code when either
// coordinate is missing or does not parse.
Result<std::vector<Code>> GeoCodes(const RawTable& table, const Schema& schema,
                                   std::size_t latitude, const ColumnDomain& domain) {
  const int longitude = schema.ColumnIndex(domain.geo->longitude);
  if (longitude < 0 || static_cast<std::size_t>(longitude) >= table.num_columns()) {
    return InvalidArgument("geo pair '" + domain.AttributeName() + "': no column '" +
                           domain.geo->longitude + "'");
  }
  auto codec = GeoCodec::Create(*domain.geo);
  if (!codec) return codec.error().WithContext("geo pair '" + domain.AttributeName() + "'");
  const std::vector<double> lats = NumericRowValues(table.columns[latitude],
                                                    schema.columns[latitude]);
  const std::vector<double> lons =
      NumericRowValues(table.columns[static_cast<std::size_t>(longitude)],
                       schema.columns[static_cast<std::size_t>(longitude)]);
  const Code missing = FallbackCode(domain, true);
  std::vector<Code> codes(lats.size());
  for (std::size_t r = 0; r < codes.size(); ++r) {
    codes[r] = std::isnan(lats[r]) || std::isnan(lons[r])
                   ? missing
                   : static_cast<Code>(codec->RegionOf(GeoPoint{lats[r], lons[r]}));
  }
  return codes;
}

// Decodes every geo attribute: per row a point drawn from its region (both coordinates NaN for
// the missing code), into `numbers` at the latitude and the longitude columns' indices (marked
// in `is_geo`). Each pair draws from the latitude column's stream.
Status DecodeGeoPairs(const EncodedTable& synthetic, const Schema& schema,
                      const std::vector<ColumnDomain>& domains, const std::vector<int>& modelled,
                      Rng& rng, std::vector<std::vector<double>>& numbers,
                      std::vector<bool>& is_geo) {
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    const ColumnDomain& domain = domains[k];
    if (!domain.is_geo()) continue;
    const auto latitude = static_cast<std::size_t>(modelled[k]);
    const int longitude = schema.ColumnIndex(domain.geo->longitude);
    if (longitude < 0) {
      return InvalidArgument("geo pair '" + domain.AttributeName() + "': no column '" +
                             domain.geo->longitude + "'");
    }
    auto codec = GeoCodec::Create(*domain.geo);
    if (!codec) return codec.error().WithContext("geo pair '" + domain.AttributeName() + "'");
    std::unique_ptr<Rng> pair_rng = rng.Fork(0xDEC0DE00u + latitude);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double>& lats = numbers[latitude];
    std::vector<double>& lons = numbers[static_cast<std::size_t>(longitude)];
    lats.assign(synthetic.rows, nan);
    lons.assign(synthetic.rows, nan);
    is_geo[latitude] = true;
    is_geo[static_cast<std::size_t>(longitude)] = true;
    const std::vector<Code>& codes = synthetic.columns[k];
    for (std::size_t r = 0; r < synthetic.rows; ++r) {
      if (domain.is_missing_code(codes[r])) continue;
      const GeoPoint point = codec->Draw(codes[r], *pair_rng);
      lats[r] = point.lat;
      lons[r] = point.lon;
    }
  }
  return OkStatus();
}

std::string RandomLetters(std::size_t length, Rng& rng) {
  std::string text(length, 'a');
  for (char& c : text) c = static_cast<char>('a' + UniformBelow(rng, 26));
  return text;
}

Result<std::vector<DecodedColumn>> DecodeColumns(const EncodedTable& synthetic,
                                                 const Schema& schema,
                                                 const std::vector<ColumnDomain>& domains,
                                                 Rng& rng, Progress& progress) {
  const std::vector<int> modelled = ModelledColumns(schema);
  if (modelled.size() != domains.size() || synthetic.num_attributes() != domains.size()) {
    return InvalidArgument("the synthetic table, the domains and the schema disagree on the "
                           "number of modelled columns");
  }
  std::vector<int> attribute_of(schema.columns.size(), -1);
  for (std::size_t k = 0; k < modelled.size(); ++k) attribute_of[modelled[k]] = static_cast<int>(k);
  std::vector<std::vector<double>> geo_numbers(schema.columns.size());
  std::vector<bool> geo_column(schema.columns.size(), false);
  if (Status s = DecodeGeoPairs(synthetic, schema, domains, modelled, rng, geo_numbers,
                                geo_column);
      !s) {
    return s.error();
  }

  // Numeric columns and their bands, from the sampled codes (post-processing). Detected again
  // rather than handed over from CoupleBandsAcrossBuckets (which runs on the correlated mode's
  // samples only): the coupling can make a pair banded enough to be found.
  const std::vector<BandPair> band_pairs = FindBandPairs(synthetic, domains);

  std::vector<DecodedColumn> decoded;
  const std::size_t rows = synthetic.rows;
  for (std::size_t c = 0; c < schema.columns.size(); ++c) {
    const ColumnSchema& column = schema.columns[c];
    if (column.role == ColumnRole::kIgnore) continue;
    if (progress.IsCancelled()) return Cancelled("cancelled while decoding");
    progress.Report(static_cast<double>(c) / schema.columns.size(), "Decoding values");
    // An independent, deterministic stream per column (reproducible with a SeededRng).
    std::unique_ptr<Rng> column_rng = rng.Fork(0xDEC0DE00u + c);
    DecodedColumn out;
    out.schema = &column;
    if (column.role == ColumnRole::kIdentifier) {
      out.kind = DecodedColumn::Kind::kTexts;
      auto ids = GenerateUniqueIds(column.id_pattern, rows, *column_rng);
      if (!ids) return ids.error().WithContext("column '" + column.name + "'");
      out.texts = std::move(ids.value());
      decoded.push_back(std::move(out));
      continue;
    }
    if (geo_column[c]) {
      // A geo pair's column (either coordinate), decoded above.
      out.kind = DecodedColumn::Kind::kNumbers;
      out.numbers = std::move(geo_numbers[c]);
      decoded.push_back(std::move(out));
      continue;
    }
    const int attribute = attribute_of[c];
    if (attribute < 0) {
      return InvalidArgument("column '" + column.name + "' is modelled but has no attribute");
    }
    const ColumnDomain& domain = domains[attribute];
    const std::vector<Code>& codes = synthetic.columns[attribute];
    if (domain.categorical) {
      out.kind = DecodedColumn::Kind::kLabels;
      out.codes = &codes;
      out.labels.resize(domain.cardinality());
      out.label_missing.assign(domain.cardinality(), false);
      for (std::uint32_t code = 0; code < domain.cardinality(); ++code) {
        if (domain.is_missing_code(code)) {
          out.label_missing[code] = true;
        } else {
          out.labels[code] = code < domain.categories.size() ? domain.categories[code]
                                                             : domain.other_label;
        }
      }
    } else if (domain.random_strings) {
      out.kind = DecodedColumn::Kind::kTexts;
      out.texts.resize(rows);
      for (std::size_t r = 0; r < rows; ++r) {
        const Code code = codes[r];
        if (domain.is_missing_code(code)) continue;
        const double length = domain.BinLeft(code) +
                              UniformUnit(*column_rng) * (domain.BinRight(code) - domain.BinLeft(code));
        out.texts[r] = RandomLetters(static_cast<std::size_t>(std::max(1.0, std::round(length))),
                                     *column_rng);
      }
    } else {
      out.kind = DecodedColumn::Kind::kNumbers;
      out.numbers.resize(rows);
      const NumericDecoder decoder(domain);
      const double nan = std::numeric_limits<double>::quiet_NaN();
      // A column with a band (band_pairs.h) draws each row at a quantile of its label's slice.
      std::vector<double> quantiles;
      for (const BandPair& pair : band_pairs) {
        if (pair.numeric == attribute) {
          quantiles = BandQuantiles(pair, synthetic, domains, *column_rng);
        }
      }
      for (std::size_t r = 0; r < rows; ++r) {
        const Code code = codes[r];
        if (domain.is_missing_code(code)) {
          out.numbers[r] = nan;
        } else if (!quantiles.empty() && quantiles[r] >= 0) {
          out.numbers[r] = decoder.DrawAt(code, quantiles[r]);
        } else {
          out.numbers[r] = decoder.Draw(code, *column_rng);
        }
      }
    }
    decoded.push_back(std::move(out));
  }
  return decoded;
}

// Appends the text of a decoded cell; false for a missing cell.
bool AppendDecodedCell(const DecodedColumn& column, std::size_t row, std::string& out) {
  switch (column.kind) {
    case DecodedColumn::Kind::kLabels: {
      const Code code = (*column.codes)[row];
      if (column.label_missing[code]) return false;
      out += column.labels[code];
      return true;
    }
    case DecodedColumn::Kind::kNumbers:
      if (std::isnan(column.numbers[row])) return false;
      FormatNumericCell(column.numbers[row], *column.schema, out);
      return true;
    case DecodedColumn::Kind::kTexts:
      if (column.texts[row].empty()) return false;
      out += column.texts[row];
      return true;
  }
  return false;
}

}  // namespace

Result<EncodedTable> Encode(const RawTable& table, const Schema& schema,
                            const std::vector<ColumnDomain>& domains, Progress& progress) {
  const std::vector<int> modelled = ModelledColumns(schema);
  if (modelled.size() != domains.size()) {
    return InvalidArgument("expected one domain per modelled column (" +
                           std::to_string(modelled.size()) + "), got " +
                           std::to_string(domains.size()));
  }
  EncodedTable encoded;
  encoded.rows = table.num_rows();
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    if (progress.IsCancelled()) return Cancelled("cancelled while encoding");
    progress.Report(static_cast<double>(k) / modelled.size(), "Encoding rows");
    const RawColumn& raw = table.columns[modelled[k]];
    const ColumnSchema& column = schema.columns[modelled[k]];
    const ColumnDomain& domain = domains[k];
    if (domain.cardinality() == 0 || domain.cardinality() > kMaxCardinality) {
      return InvalidArgument("column '" + column.name + "' has an empty or oversized domain");
    }
    if (domain.is_geo()) {
      auto codes = GeoCodes(table, schema, static_cast<std::size_t>(modelled[k]), domain);
      if (!codes) return codes.error();
      encoded.columns.push_back(std::move(codes.value()));
      encoded.cardinalities.push_back(domain.cardinality());
      continue;
    }
    const std::vector<Code> dictionary_codes = DictionaryCodes(raw, column, domain);
    const Code missing = FallbackCode(domain, true);
    std::vector<Code> codes(raw.codes.size());
    for (std::size_t r = 0; r < codes.size(); ++r) {
      if ((r & 0xFFFF) == 0 && progress.IsCancelled()) return Cancelled("cancelled while encoding");
      const std::uint32_t raw_code = raw.codes[r];
      codes[r] = raw_code == kMissingCode ? missing : dictionary_codes[raw_code];
    }
    encoded.columns.push_back(std::move(codes));
    encoded.cardinalities.push_back(domain.cardinality());
  }
  progress.Report(1.0, "Encoding rows");
  return encoded;
}

Status WriteSyntheticCsv(const std::string& path, const EncodedTable& synthetic,
                         const Schema& schema, const std::vector<ColumnDomain>& domains,
                         const DecodeOptions& options, Rng& rng, Progress& progress) {
  SubProgress decode_progress(progress, 0.0, 0.4);
  auto decoded = DecodeColumns(synthetic, schema, domains, rng, decode_progress);
  if (!decoded) return decoded.error();
  std::vector<std::string> header;
  for (const DecodedColumn& column : decoded.value()) header.push_back(column.schema->name);
  CsvWriteOptions write_options;
  write_options.delimiter = options.delimiter;
  write_options.crlf = options.crlf;
  write_options.missing_tokens = schema.missing_tokens;
  const auto& columns = decoded.value();
  SubProgress write_progress(progress, 0.4, 1.0);
  return WriteCsv(
      path, header, synthetic.rows,
      [&columns](std::size_t row, std::size_t column, std::string& out) {
        return AppendDecodedCell(columns[column], row, out);
      },
      write_options, write_progress);
}

Result<RawTable> DecodeToRawTable(const EncodedTable& synthetic, const Schema& schema,
                                  const std::vector<ColumnDomain>& domains, Rng& rng,
                                  Progress& progress) {
  auto decoded = DecodeColumns(synthetic, schema, domains, rng, progress);
  if (!decoded) return decoded.error();
  RawTable table;
  table.source = "synthetic";
  table.row_line.resize(synthetic.rows);
  for (std::size_t r = 0; r < synthetic.rows; ++r) table.row_line[r] = r + 2;
  std::string cell;
  for (const DecodedColumn& column : decoded.value()) {
    RawColumn raw;
    raw.name = column.schema->name;
    raw.codes.resize(synthetic.rows);
    std::unordered_map<std::string, std::uint32_t> index;
    for (std::size_t r = 0; r < synthetic.rows; ++r) {
      cell.clear();
      if (!AppendDecodedCell(column, r, cell)) {
        raw.codes[r] = kMissingCode;
        ++raw.missing_count;
        continue;
      }
      auto [it, inserted] = index.emplace(cell, static_cast<std::uint32_t>(raw.dictionary.size()));
      if (inserted) {
        raw.dictionary.push_back(cell);
        raw.counts.push_back(0);
        raw.first_row.push_back(static_cast<std::uint32_t>(r));
      }
      raw.codes[r] = it->second;
      ++raw.counts[it->second];
    }
    table.columns.push_back(std::move(raw));
  }
  return table;
}

}  // namespace deniable
