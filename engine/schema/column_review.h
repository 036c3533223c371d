// SPDX-License-Identifier: Apache-2.0
// What the owner should look at in a column before a release, from its schema and its data:
// warnings (the release may not be what the owner expects), notes (how an inferred setting was
// decided) and suggestions (public vocabularies that hold the column's values). `inspect`
// writes them into each column's "stats" ("review"), the CLI prints the warnings before a run,
// and the GUI's Columns step shows them for the selected column.
//
// For the owner's eyes only: the texts quote counts and values of the data. Never part of a
// release (description, synthetic CSV, report).
//
// Example:
//   for (const std::string& warning : SchemaWarnings(schema, table)) std::puts(warning.c_str());
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/table.h"
#include "engine/schema/infer_schema.h"
#include "engine/schema/schema.h"
#include "engine/schema/vocabularies.h"

namespace deniable {

// A target class is rare below this share of the labelled (non-missing) rows: its counts in a
// DP model are mostly noise, and a classifier trained on the release will rarely predict it.
inline constexpr double kRareClassShare = 0.01;

struct ColumnReview {
  std::vector<std::string> warnings;
  std::vector<std::string> notes;
  // Suggested public vocabularies (MatchVocabularies), when the column has no public list.
  std::vector<VocabularyMatch> vocabularies;
  // A target's observed classes with their row counts (ObservedValues), in value order.
  std::vector<CountedValue> classes;
};

struct ReviewOptions {
  // "Today" for two-digit years, as days since 1970-01-01; nullopt: the system clock.
  std::optional<std::int64_t> today_days;
};

// The review of one column against its raw data:
//  * identifier: warns when values repeat ("N values repeat an earlier one"): the release
//    regenerates unique values, so a non-unique column loses what its repeats mean;
//  * DateTime with %y: notes the two-digit-year window and, when the POSIX rule (1969-2068)
//    would put dates after today, says how many; warns when the window in force does;
//  * target: lists the classes with counts; warns without a public class list, and for every
//    rare class (kRareClassShare);
//  * declared public categories (by hand or a vocabulary): warns about observed values outside
//    the list (they are read as missing), with counts;
//  * no declared list, a String or categorical Integer column that is modelled: suggests the
//    vocabularies MatchVocabularies finds.
ColumnReview ReviewColumn(const ColumnSchema& column, const RawColumn& raw,
                          const ReviewOptions& options = {});

// Every column's warnings, each as "column 'NAME': warning" (columns of `schema` are matched to
// the table's by position, as LoadInput builds them): what the CLI prints before a run.
std::vector<std::string> SchemaWarnings(const Schema& schema, const RawTable& table,
                                        const ReviewOptions& options = {});

// "21,452": counts in messages, with thousands separators.
std::string FormatCount(std::uint64_t count);

}  // namespace deniable
