// SPDX-License-Identifier: Apache-2.0
// Built-in public vocabularies: category lists that are public knowledge independent of any
// dataset (US states, ISO countries and currencies, months, weekdays, booleans, letter grades,
// sex codes). A column's public categories may be declared as one of them ("public":
// {"vocabulary": "us-states-usps"} in schema JSON), which expands to the vocabulary's list:
// the release then carries every entry, observed or not, and spends no ε on the column's
// category list (docs/schema.md, "Public vocabularies").
//
// Matching (MatchVocabularies) only SUGGESTS: the owner sees which vocabularies hold a
// column's values (inspect, the GUI's Columns step) and declares one, or not. Nothing is
// applied automatically: a suggestion is read off the data, the declaration is the owner's.
//
// Spellings are exact. Case is a property of the declaration, not of matching: each vocabulary
// is listed in its usual spelling (booleans in lower case, "January", "Alabama", "AL"), and a
// declaration may ask for it in upper case, lower case or capitalized ("Yes", "True") to fit
// the column (LetterCase, ApplyLetterCase). Matching tries every case and suggests the ones
// that fit. Other variants (abbreviations with a dot, "Sept") are not in any list.
//
// When NOT to use: for a list that is public only for your study (a codebook), declare the
// categories by hand; a vocabulary is for lists anybody can look up.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable {

struct Vocabulary {
  std::string id;      // stable, written in schema JSON: "us-states-usps"
  std::string title;   // for people: "US states and DC (USPS codes)"
  std::string source;  // where the list comes from: "ISO 3166-1 (Debian iso-codes 4.15)"
  std::vector<std::string> entries;  // exact spellings, in the list's natural order
};

// Every built-in vocabulary, in a fixed order (the order suggestions break ties in).
const std::vector<Vocabulary>& PublicVocabularies();

// The vocabulary with this id (exact, case-sensitive), nullptr when there is none.
const Vocabulary* FindVocabulary(std::string_view id);

// `text` in `letter_case`: upper or lower case for ASCII and Latin-1 letters (UTF-8 "ô" <-> "Ô";
// other characters unchanged), or capitalized (the first letter upper, the rest lower).
std::string ApplyLetterCase(std::string_view text, LetterCase letter_case);

// The vocabulary's entries written in `letter_case`.
std::vector<std::string> VocabularyEntries(const Vocabulary& vocabulary, LetterCase letter_case);

// A vocabulary that holds (nearly) all of a column's observed values, for the owner's eyes.
struct VocabularyMatch {
  const Vocabulary* vocabulary = nullptr;
  LetterCase letter_case = LetterCase::kAsListed;
  std::uint64_t matched_cells = 0;     // non-missing cells whose text is an entry
  std::uint64_t outside_cells = 0;     // non-missing cells whose text is not
  std::size_t observed_entries = 0;    // distinct entries seen in the column
  // The observed values outside the vocabulary, most frequent first (at most
  // kMaxOutsideValuesListed), with their cell counts.
  std::vector<std::pair<std::string, std::uint64_t>> outside_values;
  std::uint64_t outside_distinct = 0;  // all of them (may exceed the list)
};

// What "nearly all" allows: at most this share of the non-missing cells and this many distinct
// texts outside the vocabulary (a typo, an "Unknown"); everything else must be an entry.
inline constexpr double kVocabularyOutsideShare = 0.01;
inline constexpr std::uint64_t kVocabularyOutsideDistinct = 3;
inline constexpr std::size_t kMaxOutsideValuesListed = 20;

// The vocabularies (and cases) that hold the column's observed values within the tolerance
// above, best first: fewest outside cells, then the smallest vocabulary (the tightest fit),
// then the built-in order. Only String and categorical Integer columns are matched (an Integer
// column only against vocabularies whose entries are all canonical integers, "0"/"1": it could
// not write "004" back); a column with no
// non-missing value matches nothing. A case that spells the vocabulary exactly like an
// earlier case (months are already capitalized) is not repeated.
std::vector<VocabularyMatch> MatchVocabularies(const RawColumn& raw, const ColumnSchema& column);

// The observed values of `raw` outside `categories` (exact texts; for Integer/Float/DateTime
// columns compared as parsed values, the way domains match them), most frequent first, at
// most `limit`, and how many cells and distinct values are outside in all.
struct OutsideValues {
  std::vector<std::pair<std::string, std::uint64_t>> values;
  std::uint64_t cells = 0;
  std::uint64_t distinct = 0;
};
OutsideValues ValuesOutside(const RawColumn& raw, const ColumnSchema& column,
                            const std::vector<std::string>& categories,
                            std::size_t limit = kMaxOutsideValuesListed);

}  // namespace deniable
