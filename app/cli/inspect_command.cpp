// SPDX-License-Identifier: Apache-2.0
// deniable-cli inspect: the inferred schema, the columns' review and the domains' forecast.
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/stderr_progress.h"
#include "engine/dp/validation.h"
#include "engine/core/atomic_file.h"
#include "engine/model/domains.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/column_review.h"
#include "engine/schema/datetime.h"
#include "engine/schema/geo_pairs.h"
#include "engine/schema/schema_json.h"

namespace deniable::cli {
namespace {

// ---- inspect ----------------------------------------------------------------------------------

// The column's format as the summary shows it: a datetime format (and its two-digit-year
// window), a Float's decimals, an identifier's pattern, a target's class count.
std::string FormatSummary(const ColumnSchema& column) {
  std::string out;
  if (column.type == DataType::kDateTime) {
    out = column.datetime_format;
    if (HasTwoDigitYear(column.datetime_format)) {
      out += " (years " + std::to_string(column.two_digit_year_start) + "-" +
             std::to_string(column.two_digit_year_start + 99) + ")";
    }
  } else if (column.type == DataType::kFloat) {
    out = column.decimals < 0 ? std::string("shortest")
                              : std::to_string(column.decimals) +
                                    (column.decimals == 1 ? " decimal" : " decimals");
  }
  if (column.role == ColumnRole::kIdentifier) out = "pattern " + column.id_pattern;
  if (column.public_categories) {
    out += std::string(out.empty() ? "" : "; ") + std::to_string(column.public_categories->size()) +
           " public categories" +
           (column.public_vocabulary.empty() ? "" : " (" + column.public_vocabulary + ")");
  }
  if (!column.geo_longitude.empty()) {
    out += std::string(out.empty() ? "" : "; ") + "geo pair with '" + column.geo_longitude + "'";
  }
  return out;
}

// The review of every column (column_review.h), as lines for the owner: warnings, notes and
// vocabulary suggestions with the line to paste into the schema.
std::string ReviewText(const LoadedInput& loaded) {
  std::string out;
  for (const GeoPair& pair : GeoPairs(loaded.schema)) {
    const std::string lat = "'" + loaded.schema.columns[pair.latitude].name + "'";
    const std::string lon = "'" + loaded.schema.columns[pair.longitude].name + "'";
    out += "  Geo pair: " + lat + " (latitude) and " + lon + " (longitude) are modelled jointly as "
           "one attribute (a geo pair: a private quadtree over the points; inference proposes a pair "
           "from column names and value ranges). To model them as two columns, set \"geo\": null on column " + lat + ".\n";
  }
  for (std::size_t i = 0; i < loaded.schema.columns.size(); ++i) {
    const ColumnSchema& column = loaded.schema.columns[i];
    const ColumnReview review = ReviewColumn(column, loaded.table->columns[i]);
    const std::string name = "'" + column.name + "'";
    for (const std::string& warning : review.warnings) {
      out += "  Warning: column " + name + ": " + warning + "\n";
    }
    for (const std::string& note : review.notes) out += "  Note: column " + name + ": " + note + "\n";
    for (const VocabularyMatch& match : review.vocabularies) {
      out += "  Suggestion: column " + name + " may hold public vocabulary '" +
             match.vocabulary->id + "' (" + match.vocabulary->title + ", " +
             std::to_string(match.vocabulary->entries.size()) + " entries, " +
             std::to_string(match.observed_entries) + " seen";
      if (match.outside_cells > 0) {
        out += "; outside it: ";
        for (std::size_t k = 0; k < match.outside_values.size(); ++k) {
          out += (k > 0 ? ", '" : "'") + match.outside_values[k].first + "' (" +
                 FormatCount(match.outside_values[k].second) + ")";
        }
      }
      out += "). If the list is public knowledge, declare " +
             std::string(column.categorical ? "" : "\"categorical\": true, ") +
             "\"public\": {\"vocabulary\": \"" + match.vocabulary->id + "\"" +
             (match.letter_case == LetterCase::kAsListed
                  ? std::string()
                  : std::string(", \"case\": \"") + LetterCaseName(match.letter_case) + "\"") +
             "}\n";
    }
  }
  return out;
}

// What the domains would keep at the given ε (domains.h ForecastDomains): for the owner.
Result<std::string> ForecastText(const LoadedInput& loaded, const ParsedArgs& args) {
  auto epsilon = args.GetDouble("--epsilon", 1.0);
  if (!epsilon) return epsilon.error();
  auto delta = args.GetDouble("--delta", 1e-9);
  if (!delta) return delta.error();
  std::optional<double> fraction;
  if (args.has("--domain-fraction") && args.get("--domain-fraction") != "auto") {
    auto value = args.GetDouble("--domain-fraction", 0);
    if (!value) return value.error();
    fraction = value.value();
  }
  SynthesisMode mode = ModelSettings{}.mode;
  if (args.has("--mode")) {
    const std::string name = args.get("--mode").value_or("");
    const auto parsed = ParseSynthesisMode(name);
    if (!parsed) return InvalidArgument("--mode: unknown mode '" + name + "'");
    mode = *parsed;
  }
  // The schema the mode models (a geo pair is two columns in the correlated and marginals modes).
  auto modelled = ModelSchemaFor(loaded.schema, mode);
  if (!modelled) return modelled.error();
  auto forecast = ForecastDomains(*loaded.table, modelled.value(), epsilon.value(), delta.value(),
                                  fraction, nullptr, MissingMarkersOf(mode));
  if (!forecast) return forecast.error();
  std::ostringstream out;
  out << "What private domain discovery keeps at ε = " << epsilon.value()
      << " (for your eyes only; " << forecast->budget.rule << "):\n";
  for (const ColumnForecast& column : forecast->columns) {
    out << "  " << column.column << ": " << column.summary << "\n";
    if (!column.likely_lost.empty()) {
      out << "    likely lost (clamped into the kept range):";
      for (std::size_t i = 0; i < column.likely_lost.size(); ++i) {
        const ColumnForecast::LostRange& range = column.likely_lost[i];
        out << (i == 0 ? " " : ", ") << internal::FormatDouble(range.lo) << " to "
            << internal::FormatDouble(range.hi) << " (" << range.rows
            << (range.rows == 1 ? " row)" : " rows)");
      }
      out << "; declare public bounds, or raise ε or the domains' share"
          << (mode == SynthesisMode::kMarginals ? "" : ", or use the marginals mode") << "\n";
    }
  }
  return out.str();
}

}  // namespace

int RunInspect(const ParsedArgs& args) {
  const bool quiet = args.has("--quiet");
  auto input = ReadInputSettings(args, args.positionals()[0]);
  if (!input) return ReportError(input.error());
  StderrProgress progress(quiet);
  auto loaded = LoadInput(input.value(), progress);
  progress.Finish();
  if (!loaded) return ReportError(loaded.error());
  const std::string text =
      SchemaJsonText(loaded->schema, /*include_stats=*/true, loaded->table.get());
  std::string review = ReviewText(loaded.value());
  auto forecast = ForecastText(loaded.value(), args);
  if (!forecast) return ReportError(forecast.error());
  review += forecast.value();
  if (auto output = args.get("--output")) {
    if (auto s = CheckNotOverwritingInput(*output, {input->path}); !s) return ReportError(s.error());
    if (auto s = WriteFileAtomically(*output, text); !s) return ReportError(s.error());
    if (!quiet) {
      std::printf("%zu rows, %zu columns; schema written to %s\n", loaded->table->num_rows(),
                  loaded->table->num_columns(), output->c_str());
      for (const ColumnSchema& column : loaded->schema.columns) {
        std::printf("  %-24s %-9s%s %-16s missing %5.1f%%  distinct %-8llu %s\n",
                    column.name.c_str(), DataTypeName(column.type),
                    column.categorical ? " categ." : "       ", ColumnRoleName(column.role),
                    100 * column.stats.missing_rate(),
                    static_cast<unsigned long long>(column.stats.distinct),
                    FormatSummary(column).c_str());
      }
      if (!review.empty()) std::printf("Review (for your eyes only):\n%s", review.c_str());
    }
  } else {
    std::fputs(text.c_str(), stdout);
    if (!quiet && !review.empty()) std::fprintf(stderr, "%s", review.c_str());
  }
  return kExitOk;
}

}  // namespace deniable::cli
