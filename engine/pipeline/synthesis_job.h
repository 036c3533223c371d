// SPDX-License-Identifier: Apache-2.0
// The one entry point the CLI and the GUI call: settings in, values out.
//
//   auto input = LoadInput(settings.input, progress);          // CSV + inferred/corrected schema
//   auto model = LearnModel(*input->table, input->schema, settings.model, rng, progress);
//   auto rows  = Synthesize(*model, *input->table, n, rng, progress);   // encoded rows
//   WriteSyntheticCsv(path, rows->encoded, model->description.schema, ...);
//
// Everything is a value; nothing here touches a file except the explicit Write* calls, which
// write atomically and refuse to overwrite the input.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/deniable/deniable_options.h"
#include "engine/dp/privacy_accountant.h"
#include "engine/io/csv_reader.h"
#include "engine/metrics/metric_report.h"
#include "engine/model/description.h"
#include "engine/model/domain_budget.h"
#include "engine/model/encoded_table.h"
#include "engine/schema/schema.h"

namespace deniable {

enum class SynthesisMode { kRandom, kIndependent, kCorrelated, kDeniable, kMarginals };
const char* SynthesisModeName(SynthesisMode mode);  // "random", ...
std::optional<SynthesisMode> ParseSynthesisMode(std::string_view name);
// Who decides a mode's missing codes (model/domain_budget.h): the marginals mode's own noisy
// 1-way marginals, the set union in every other mode.
MissingMarkers MissingMarkersOf(SynthesisMode mode);

// The marginals mode's mechanism (issue 10): MST (JPC 2021) or AIM (VLDB 2022), both estimated
// with Private-PGM (engine/marginals/).
enum class MarginalsMechanism { kMst, kAim };
const char* MarginalsMechanismName(MarginalsMechanism mechanism);  // "mst", "aim"
std::optional<MarginalsMechanism> ParseMarginalsMechanism(std::string_view name);

struct MarginalsSettings {
  MarginalsMechanism mechanism = MarginalsMechanism::kAim;
  int rounds = 0;              // AIM: selection rounds at most (0 = 16 × attributes, as AIM)
  double max_model_mb = 0;     // AIM: model-size cap in MB of doubles (0 = default, aim.h)
  std::string target;          // AIM: a column whose marginals the workload weights up
  int iterations = 0;          // final mirror-descent iterations (0 = the mechanism's default)
};

struct InputSettings {
  std::string path;
  CsvReadOptions csv;                      // delimiter 0 = detect; missing tokens
  int categorical_threshold = 20;
  std::optional<nlohmann::json> schema;    // the user's corrections (full or partial)
  std::string schema_source = "schema";    // its file name, for messages
};

struct LoadedInput {
  std::shared_ptr<const RawTable> table;
  Schema schema;  // inferred, then corrected by InputSettings::schema
};

// The most bins of a numeric column when ModelSettings::bins is 0 (by rule): 32 in the
// independent mode, 20 in the random and marginals modes; in the others √(n̂·ε_model·(1 − structure share)/(6·m)) within
// [5, 20], so that a PrivBayes table can give a numeric child a parent (model_settings.cpp). n̂
// is the run's DP row count, ε_model what the domains leave, m the modelled columns.
int AutomaticBins(SynthesisMode mode, double noisy_rows, double model_epsilon, std::size_t columns,
                  double structure_fraction);

// Whether `mode` models a declared geo pair (schema/geo_pairs.h) as ONE attribute — the private
// quadtree's regions — or as its two numeric columns, whose joint the mode's model learns like
// any other pair's. Jointly in the independent, random and deniable modes; as two columns in
// the correlated and marginals modes, where it was measured closer to the real data
// (mplsstops, ε = 1, seeds 1–3, docs/utility.md stop 28): the 16 × 16 map's TVD 0.135 with the
// pair and 0.088 without in the marginals mode (AIM measures lat × long itself, at its own ρ,
// where the quadtree's detail is bounded by the domains' share), 0.162 and 0.161 in the
// correlated mode; the suite's mean 2-way TVD 0.053 → 0.037 (marginals) and 0.080 → 0.067
// (correlated). In the independent mode two columns have no joint at all (0.27 against the
// pair's 0.16).
bool ModelsGeoPairsJointly(SynthesisMode mode);

// The schema a run of `mode` models: `schema` itself, or, where ModelsGeoPairsJointly is false,
// `schema` with its geo pairs dissolved into their two numeric columns (the release's
// description then carries the dissolved schema). A declared pair that is not valid
// (GeoPairProblem) is refused in every mode (kFailedPrecondition naming the columns).
Result<Schema> ModelSchemaFor(const Schema& schema, SynthesisMode mode);

// Reads the CSV (progress 0–0.8), infers the schema and applies the user's corrections.
Result<LoadedInput> LoadInput(const InputSettings& settings, Progress& progress);

// As LoadInput, but first holds out round(control_fraction · rows) random rows (drawn with
// `rng`) as control rows, before the schema is inferred (engine/evaluate/control_split.h);
// `input` is then the training rows' only. control_fraction 0 = LoadInput (no control).
struct LoadedSplitInput {
  LoadedInput input;                        // the training rows
  std::shared_ptr<const RawTable> control;  // the held-out rows (never given to a model)
};
Result<LoadedSplitInput> LoadInputWithControl(const InputSettings& settings,
                                              double control_fraction, Rng* rng,
                                              Progress& progress);

struct ModelSettings {
  SynthesisMode mode = SynthesisMode::kMarginals;
  double epsilon = 1.0;            // the whole release's budget (domains + model [+ seeds])
  double delta = 1e-9;             // for partition selection and (deniable) the model
  // Share of ε for DP domains (categories, numeric bins, missing markers): unset = by the rule
  // of model/domain_budget.h (from a DP row count, the column count and types); 0 is allowed
  // when every domain is declared public.
  std::optional<double> domain_fraction;
  // Most bins of a numeric column (a column's own `bins` in the schema wins). 0 = by rule
  // (AutomaticBins: fewer for small tables, so that PrivBayes's tables can have parents).
  int bins = 0;
  int degree = 2;                  // correlated: parents per node
  double structure_fraction = 0.15; // correlated: share of the model's ε for the structure
  // Deniable mode: k, γ, ω, ε0, test type, maxcost, split, candidate cap (deniable_options.h).
  // Its model_epsilon and records are set by the pipeline from `epsilon` and the row count.
  DeniableOptions deniable;
  MarginalsSettings marginals;     // marginals mode
  std::string other_label = "Other";
  unsigned threads = 0;            // 0 = all cores
  // The share of rows held out as control rows before learning (LoadInputWithControl; the
  // user's setting, public): when > 0, LearnModel records a zero-cost ledger entry saying so.
  // Never the number of rows held out: it would publish the real row count.
  double control_fraction = 0;

  // Every parameter checked once; messages name the parameter and its value.
  Status Validate() const;
  nlohmann::json ToJson() const;
};

struct DeniableState;  // the deniable mode's split, model and encoded input (pipeline only)
struct MarginalsModel;  // the marginals mode's fitted model (engine/marginals/)

// The learned, private model and its accounting. `description` is what the description file
// holds.
struct LearnedModel {
  Description description;
  PrivacyAccountant accountant;
  bool reproducible_not_private = false;
  std::vector<std::string> warnings;
  std::shared_ptr<const DeniableState> deniable;  // deniable mode only
  std::shared_ptr<const MarginalsModel> marginals;  // marginals mode only
};

Result<LearnedModel> LearnModel(const RawTable& table, const Schema& schema,
                                const ModelSettings& settings, Rng& rng, Progress& progress);

struct SynthesisSummary {
  std::size_t rows = 0;
  nlohmann::json privacy;           // the ledger after synthesis (deniable mode adds its test)
  // deniable: candidate ATTEMPTS (a function of the T outputs, releasable); how many candidates
  // were actually tested (attempts minus failure-floor stops) is owner-only (docs/deniable.md).
  std::uint64_t candidates = 0;
  std::uint64_t passed = 0;         // deniable: attempts that released a record
  nlohmann::json guarantee;         // the release's guarantees (numbers + plain statement)
  std::string text;                 // human-readable summary for the CLI / GUI
  std::string model_text;           // marginals mode: what was measured, AIM's error bounds
};

struct ReleaseOrigins;  // engine/deniable/deniable_synthesizer.h

struct SyntheticRows {
  EncodedTable encoded;  // over the modelled columns, in released (shuffled) order
  SynthesisSummary summary;
  // Deniable mode, OWNER ONLY: which seed and ω made each row (for WriteDeniableAuditFor).
  std::shared_ptr<const ReleaseOrigins> deniable_origins;
};

// Synthesizes `rows` records. DataSynthesizer modes sample the network (the real table is not
// read); the deniable mode draws seeds from D_S of `table` and tests each candidate.
Result<SyntheticRows> Synthesize(const LearnedModel& model, const RawTable& table,
                                 std::size_t rows, Rng& rng, Progress& progress);

// Deniable mode only: writes the owner's audit directory (engine/deniable/audit.h) for a
// release made by Synthesize — the model, the row numbers of D_S and the released records in
// encoded form. Never part of a release.
Status WriteDeniableAuditFor(const LearnedModel& model, const SyntheticRows& rows,
                             const std::string& directory);

// Deniable mode: the parameter advisor (engine/deniable/advisor.h) on the loaded input, with
// the settings' domains and options. For the owner only (pass rates come from real data).
Result<nlohmann::json> AdviseDeniable(const LoadedInput& input, const ModelSettings& settings,
                                      std::string& text, Rng& rng, Progress& progress);

// Deniable mode, before a run: the guarantees a release of `rows` records would get (the
// per-record (k, γ) and Theorem 1's (ε, δ), the test's cost over the T attempts, and an upper
// bound on the whole release: domains ⊕ max(model, test)). Data-independent: no data is read.
struct DeniablePlan {
  PrivacyCost record;     // Theorem 1 for the best t (randomised test; +inf for deterministic)
  bool record_meets_delta = true;  // t exists with e^{-ε0 (k - t)} <= the per-record δ
  PrivacyCost synthesis;  // the test over T attempts
  PrivacyCost release;    // whole release (upper bound before the run)
  std::uint64_t attempts_cap = 0;
  bool meaningful = true;  // false when the whole-release DP guarantee is vacuous (δ >= 1, ε = ∞)
  std::string statement;
};
Result<DeniablePlan> PlanDeniableRelease(const ModelSettings& settings, std::size_t rows,
                                         std::size_t attributes);

// Sampling from a description file alone (no real data): ancestral sampling of its network.
Result<EncodedTable> GenerateFromDescription(const Description& description, std::size_t rows,
                                             Rng& rng, Progress& progress);

// Everything a reviewed release consists of: the model (description, ledger), the synthetic
// rows both encoded and decoded (the decoded table is exactly what an export writes, with
// WriteRawTable), and the utility metrics against the real data (for the owner's review only).
struct ReleaseResult {
  LearnedModel model;
  SyntheticRows rows;
  std::shared_ptr<const RawTable> synthetic;
  MetricReport metrics;
};

// LearnModel + Synthesize + decode + CompareTables, with progress over the whole run.
Result<ReleaseResult> RunRelease(const LoadedInput& input, const ModelSettings& settings,
                                 std::size_t rows, Rng& rng, Progress& progress);

// A rough, engine-side estimate of a run's time and peak memory (from the benchmarks), shown
// before a run starts.
struct RunEstimate {
  double seconds = 0;
  double peak_megabytes = 0;
};
RunEstimate EstimateRun(std::size_t input_rows, std::size_t columns, std::size_t output_rows,
                        const ModelSettings& settings);

// Plain-words statement of a (ε, δ) guarantee for data owners.
std::string PlainGuarantee(double epsilon, double delta);

}  // namespace deniable
