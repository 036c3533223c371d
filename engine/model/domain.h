// SPDX-License-Identifier: Apache-2.0
// The domain of each modelled column: the finite set of codes a model works with, and how a
// code turns back into a value. Every domain records where its facts came from (provenance):
// declared public by the user, computed by an accounted DP mechanism, or imported from a
// description file. Never from the raw data directly.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/schema/schema.h"

namespace deniable {

enum class DomainSource {
  kPublic,    // the user declared it public in the schema
  kDp,        // computed by a DP mechanism recorded in the ledger
  kImported,  // read from a description file (its own provenance is carried along)
};
const char* DomainSourceName(DomainSource source);  // "public", "dp", "imported"

inline constexpr std::size_t kMaxSubCells = 4096;  // per-integer sub-cells up to this range
inline constexpr int kSubCellsPerBin = 32;         // otherwise, per bin

// Code layout of a column with cardinality C:
//   categorical: codes 0..K-1 are `categories`, then `other` (if has_other), then `missing`
//                (if has_missing);
//   numeric:     codes 0..bins-1 are equal-width bins over [lo, hi] (values outside are clamped
//                into the edge bins), then `missing` (if has_missing).
struct ColumnDomain {
  std::string name;
  DataType type = DataType::kString;
  bool categorical = true;

  std::vector<std::string> categories;  // categorical: value texts as written to the output
  bool has_other = false;               // a code for values outside `categories`
  std::string other_label = "Other";    // what the output shows for that code

  double lo = 0, hi = 0;  // numeric: public or DP bounds (datetime: seconds)
  int bins = 0;           // numeric: number of equal-width bins
  // Integer columns: the domain is the integers lo..hi; bins split [lo, hi + 1) so that every
  // integer falls in exactly one bin and decoding draws an integer of that bin uniformly.
  // (Imported DataSynthesizer descriptions use continuous bins over [lo, hi] and round.)
  bool integer_steps = false;
  // Numeric: how a value is drawn inside its bin. With `sub_weights` empty, uniformly. Else
  // from a DP histogram over sub-cells (DomainSource::kDp, in the ledger): for integer domains
  // of at most kMaxSubCells integers one sub-cell per integer (sub_per_bin == 0); otherwise
  // sub_per_bin equal sub-cells per bin (sub_weights.size() == bins * sub_per_bin).
  int sub_per_bin = 0;
  std::vector<double> sub_weights;
  // DataSynthesizer import only: the "non-categorical string" DataSynthesizer did not model;
  // bins are over string LENGTHS and decoding emits random letters (what it generates).
  bool random_strings = false;

  bool has_missing = false;  // a code for missing values

  DomainSource categories_source = DomainSource::kPublic;  // or bounds, for numeric columns
  std::string provenance;  // human-readable, e.g. "DP partition selection (ε = 0.02, δ = 1e-9)"

  std::uint32_t value_codes() const {
    return categorical ? static_cast<std::uint32_t>(categories.size()) + (has_other ? 1u : 0u)
                       : static_cast<std::uint32_t>(bins);
  }
  std::uint32_t cardinality() const { return value_codes() + (has_missing ? 1u : 0u); }
  std::uint32_t other_code() const { return static_cast<std::uint32_t>(categories.size()); }
  std::uint32_t missing_code() const { return value_codes(); }
  bool is_missing_code(std::uint32_t code) const { return has_missing && code == missing_code(); }
  double span() const { return integer_steps ? hi - lo + 1.0 : hi - lo; }
  double bin_width() const { return bins > 0 ? span() / bins : 0.0; }
  // Numeric: the bin a value falls in (clamped to [0, bins-1]).
  std::uint32_t BinOf(double value) const;
  // Numeric: [left, right) of a bin (the last bin of a continuous domain includes hi).
  double BinLeft(std::uint32_t bin) const { return lo + bin * bin_width(); }
  double BinRight(std::uint32_t bin) const {
    return bin + 1 >= static_cast<std::uint32_t>(bins) ? lo + span() : lo + (bin + 1) * bin_width();
  }
  // Integer domains: the first and last integer of a bin (first > last for an empty bin).
  double FirstIntegerOf(std::uint32_t bin) const;
  double LastIntegerOf(std::uint32_t bin) const;
  // Sub-cells (when sub_weights is set): the index range [first, last) of a bin's sub-cells,
  // the sub-cell of a value, and a sub-cell's value range [left, right) (integer domains: the
  // integers first..last of the sub-cell).
  std::pair<std::size_t, std::size_t> SubCellsOfBin(std::uint32_t bin) const;
  std::size_t SubCellOf(double value) const;
  double SubCellLeft(std::size_t cell) const;
  double SubCellRight(std::size_t cell) const;
  // The sub-cell layout a domain with these bounds gets (0 = one per integer).
  static int SubCellsPerBinFor(const ColumnDomain& domain);

  // Short label of a code for views and reports: the category, "[lo, hi)", "(missing)".
  std::string CodeLabel(std::uint32_t code, const ColumnSchema* column = nullptr) const;
};

}  // namespace deniable
