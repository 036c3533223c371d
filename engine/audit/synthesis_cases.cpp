// SPDX-License-Identifier: Apache-2.0
// Every synthesis mode end to end as an audit case: the pipeline's LearnModel + Synthesize on
// a 20-row table of 3 columns (age, sex, city); D′ = D plus one extreme record (age 250, a
// city no one else has). The claim is the release's own guarantee (summary.guarantee).
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "engine/audit/audit_cases.h"
#include "engine/core/progress.h"
#include "engine/io/csv_reader.h"
#include "engine/model/encoding.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/infer_schema.h"

namespace deniable {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::size_t kSyntheticRows = 20;
// Private-PGM's final mirror-descent iterations in the marginals mode (post-processing of the
// noisy marginals, so it changes utility, not privacy): the default makes one run ~0.75 s.
constexpr int kMarginalsIterations = 50;

// D: `rows` rows, age 20 + 2·(r mod 20), sex alternating, city cycling over three.
std::string TableCsv(bool neighbour, int rows) {
  std::string csv = "age,sex,city\n";
  const char* cities[] = {"Oslo", "Rome", "Lima"};
  for (int r = 0; r < rows; ++r) {
    csv += std::to_string(20 + 2 * (r % 20)) + "," + (r % 2 ? "F" : "M") + "," + cities[r % 3] +
           "\n";
  }
  if (neighbour) csv += "250,F,Zanzibar\n";
  return csv;
}

struct Tables {
  std::shared_ptr<const RawTable> table[2];
  Schema schema[2];
};

Result<std::shared_ptr<Tables>> MakeTables(int rows) {
  auto tables = std::make_shared<Tables>();
  for (int i = 0; i < 2; ++i) {
    NullProgress progress;
    auto table =
        ParseCsv(TableCsv(i == 1, rows), i == 1 ? "D'" : "D", CsvReadOptions{}, progress);
    if (!table) return table.error();
    // The schema is the owner's declaration, the same for D and D′ (inference alone would
    // call 20 distinct ages an identifier on D and a number on D′): age an integer attribute,
    // sex and city categorical strings; no public bounds or categories.
    // One schema object, declared on D and used for D′ too (its data-derived stats are for
    // the owner's display only).
    if (i == 0) {
      Schema schema = InferSchema(*table, InferOptions{});
      for (ColumnSchema& column : schema.columns) {
        column.role = ColumnRole::kAttribute;
        column.type = column.name == "age" ? DataType::kInteger : DataType::kString;
        column.categorical = column.name != "age";
      }
      tables->schema[0] = schema;
      tables->schema[1] = std::move(schema);
    }
    tables->table[i] = std::make_shared<const RawTable>(std::move(table.value()));
  }
  return tables;
}

// The features of one synthetic table: rows with city "Zanzibar" (the extreme record's
// value), rows with any city other than the three of D, the largest age, rows with age >= 100,
// rows with sex F.
std::vector<double> Features(const RawTable& synthetic) {
  double zanzibar = 0, other = 0, max_age = -1e300, old = 0, female = 0;
  const int age = synthetic.ColumnIndex("age");
  const int sex = synthetic.ColumnIndex("sex");
  const int city = synthetic.ColumnIndex("city");
  if (age < 0 || sex < 0 || city < 0) return {kNaN};
  for (std::size_t r = 0; r < synthetic.num_rows(); ++r) {
    auto cell = [&](int column) -> std::string {
      const RawColumn& c = synthetic.columns[static_cast<std::size_t>(column)];
      return c.is_missing(r) ? std::string() : c.dictionary[c.codes[r]];
    };
    const std::string c = cell(city);
    if (c == "Zanzibar") ++zanzibar;
    if (c != "Oslo" && c != "Rome" && c != "Lima") ++other;
    const std::string a = cell(age);
    if (!a.empty()) {
      const double value = std::strtod(a.c_str(), nullptr);
      max_age = std::max(max_age, value);
      if (value >= 100) ++old;
    }
    if (cell(sex) == "F") ++female;
  }
  return {zanzibar, other, max_age, old, female};
}

// Runs per input of the short audit: a run costs ~5 ms in the DataSynthesizer modes, ~20 ms
// in the deniable mode (100 rows) and ~0.3 s in the marginals mode (almost all of it in the
// accountant's zCDP-to-(ε, δ) conversions, ZcdpDelta), so each mode's test takes seconds.
std::size_t ShortAuditSamples(SynthesisMode mode) {
  switch (mode) {
    case SynthesisMode::kMarginals: return 40;
    case SynthesisMode::kDeniable: return 400;
    default: return 1000;
  }
}

}  // namespace

Result<std::vector<AuditCase>> SynthesisAuditCases() {
  auto small = MakeTables(20);
  if (!small) return small.error();
  auto large = MakeTables(100);
  if (!large) return large.error();
  std::vector<AuditCase> cases;
  for (SynthesisMode mode : {SynthesisMode::kRandom, SynthesisMode::kIndependent,
                             SynthesisMode::kCorrelated, SynthesisMode::kMarginals,
                             SynthesisMode::kDeniable}) {
    ModelSettings settings;
    settings.mode = mode;
    settings.epsilon = 1.0;
    settings.delta = 1e-6;
    settings.threads = 1;
    if (mode == SynthesisMode::kMarginals) settings.marginals.mechanism = MarginalsMechanism::kMst;
    if (mode == SynthesisMode::kMarginals) settings.marginals.iterations = kMarginalsIterations;
    if (mode == SynthesisMode::kDeniable) {
      // Small tables: k = 50 would pass no candidate; k = 8, ε0 = 2 and a per-record δ of 1e-4
      // give t = 3 and a finite whole-release (ε, δ) (Theorem 1 composed over the attempts).
      settings.deniable.k = 8;
      settings.deniable.epsilon0 = 2.0;
      settings.deniable.record_delta = 1e-4;
      // The whole-release claim composes Theorem 1 over the cap T of attempts (100,000 by
      // default: a vacuous δ). One released record from one attempt keeps it auditable.
      settings.deniable.max_candidates = 1;
      // |D_S| >= k is decided on a DP lower bound of |D_S| (noisy count minus a margin of
      // ln(1/δ)/ε, 41 rows by default): 100 rows and a margin of 14 let the run proceed.
      settings.deniable.seed_count_epsilon = 1.0;
      settings.deniable.seed_count_delta = 1e-6;
    }
    const std::shared_ptr<Tables> tables = mode == SynthesisMode::kDeniable ? *large : *small;
    const std::size_t synthetic_rows = mode == SynthesisMode::kDeniable ? 1 : kSyntheticRows;
    struct Run {
      RawTable synthetic;
      nlohmann::json guarantee;
    };
    auto run = [tables, settings, synthetic_rows](bool neighbour, Rng& rng) -> Result<Run> {
      NullProgress progress;
      const int i = neighbour ? 1 : 0;
      auto model = LearnModel(*tables->table[i], tables->schema[i], settings, rng, progress);
      if (!model) return model.error();
      auto rows = Synthesize(*model, *tables->table[i], synthetic_rows, rng, progress);
      if (!rows) return rows.error();
      // The decoded table is what an export writes (post-processing of the release).
      auto decoded = DecodeToRawTable(rows->encoded, model->description.schema,
                                      model->description.domains, rng, progress);
      if (!decoded) return decoded.error();
      return Run{std::move(decoded.value()), rows->summary.guarantee};
    };
    // The claim: the guarantee the release states, from one dry run (it depends on the
    // settings only; the test checks that D' gets the same).
    SeededRng dry(0);
    auto probe = run(false, dry);
    if (!probe) return probe.error().WithContext(SynthesisModeName(mode));
    const nlohmann::json& guarantee = probe->guarantee;
    if (!guarantee.contains("epsilon") || !guarantee.contains("delta") ||
        !guarantee["epsilon"].is_number() || !guarantee["delta"].is_number() ||
        !(guarantee["delta"].get<double>() < 1)) {
      return InternalError(std::string(SynthesisModeName(mode)) +
                           ": no meaningful (epsilon, delta) in the release's guarantee: " +
                           guarantee.dump());
    }
    cases.push_back(AuditCase{
        std::string("mode_") + SynthesisModeName(mode),
        std::string(SynthesisModeName(mode)) +
            " mode end to end, " + std::to_string(tables->table[0]->num_rows()) +
            " rows x (age, sex, city), eps = 1; D' adds (250, F, Zanzibar); " +
            std::to_string(synthetic_rows) + " synthetic row(s)",
        guarantee["epsilon"].get<double>(), guarantee["delta"].get<double>(), false,
        ShortAuditSamples(mode),
        {"rows with city Zanzibar", "rows with a city not in D", "largest age",
         "rows with age >= 100", "rows with sex F", "refused"},
        [run](bool neighbour, Rng& rng) {
          auto result = run(neighbour, rng);
          if (!result) {
            // A refusal decided on DP values (the deniable mode's noisy |D_S| >= k check) is
            // an output like any other; any other error makes the audit fail.
            if (result.error().code != ErrorCode::kFailedPrecondition) {
              return std::vector<double>{kNaN};
            }
            return std::vector<double>{-1, -1, -1, -1, -1, 1};
          }
          std::vector<double> features = Features(result->synthetic);
          features.push_back(0);
          return features;
        }});
  }
  return cases;
}

}  // namespace deniable
