// SPDX-License-Identifier: Apache-2.0
// The rows of the settings table (settings_table.h) and what is derived from them.
//
// Bounds, and why:
//   bins 2–1000 (or auto): one bin would make a column's values uniform over its range (its
//     distribution gone: the random mode does that on purpose); beyond 1,000 bins each bin's
//     noisy count is mostly noise at any ε a release uses, and a pair's table (10^6 cells) is
//     past what the models keep. The slider, the CLI and the project file used to disagree
//     (2–100, up to 100,000, 1–1000); they all take these now. A column's own `bins` in the
//     schema is separate (schema_json.h).
//   k up to 10^6, maxcost and max_candidates up to 10^15: far past any run, below 2^53 so
//     that the JSON and double forms are exact.
#include "engine/pipeline/settings_table.h"

#include <cassert>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "engine/marginals/aim.h"
#include "engine/pipeline/run_job_internal.h"

namespace deniable {
namespace {

using json = nlohmann::json;
using internal::Number;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr unsigned kDeniableOnly = ModeBit(SynthesisMode::kDeniable);
constexpr unsigned kMarginalsOnly = ModeBit(SynthesisMode::kMarginals);
constexpr unsigned kCorrelatedOnly = ModeBit(SynthesisMode::kCorrelated);

// Shortest text that reads back to the same double ("0.1", "1e-09").
std::string Exact(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

// " (got 1001)", " (got 'tree')": the offending value, in messages.
std::string Got(const json& value) {
  return " (got " + (value.is_string() ? "'" + value.get<std::string>() + "'" : value.dump()) +
         ")";
}

bool IsAuto(const json& value) { return value.is_string() && value.get<std::string>() == "auto"; }

std::string IntegerText(double value) {
  return std::isfinite(value) ? std::to_string(static_cast<long long>(value)) : Number(value);
}

// Rows name only what differs from SettingSpec's defaults (designated initializers); g++ 12
// still warns about the members left out (later versions do not), so the warning is off for the
// table alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
std::vector<SettingSpec> MakeTable() {
  std::vector<SettingSpec> table;
  // --- All modes ---
  table.push_back({
      .name = "mode", .title = "Mode", .cli_flag = "--mode", .value_name = "M",
      .help = "marginals (MST/AIM with Private-PGM; the default) | correlated | independent | "
              "random (DataSynthesizer's modes) | deniable",
      .kind = SettingKind::kChoice,
      .choices = {"random", "independent", "correlated", "deniable", "marginals"},
      .get = [](const ModelSettings& s) { return json(SynthesisModeName(s.mode)); },
      .set = [](ModelSettings& s, const json& v) {
        s.mode = *ParseSynthesisMode(v.get<std::string>());
      },
      .example = "deniable"});
  table.push_back({
      .name = "epsilon", .title = "ε, budget of the whole release",
      .cli_flag = "--epsilon", .value_name = "E",
      .help = "privacy budget ε for the domains and the model (default 1): the whole release in "
              "the DP modes; the deniable mode adds its test's cost over the attempts, shown in "
              "the summary",
      .kind = SettingKind::kReal, .minimum = 0, .maximum = kInfinity,
      .minimum_inclusive = false, .maximum_inclusive = false,
      .control_minimum = 0.01, .control_maximum = 100,
      .get = [](const ModelSettings& s) { return json(s.epsilon); },
      .set = [](ModelSettings& s, const json& v) { s.epsilon = v.get<double>(); },
      .example = 2.5});
  table.push_back({
      .name = "delta", .title = "δ", .cli_flag = "--delta", .value_name = "D",
      .help = "δ of the release (the categories' set union; default 1e-9)",
      .kind = SettingKind::kReal, .minimum = 0, .maximum = 1e-3,
      .minimum_inclusive = false, .maximum_inclusive = false,
      .control_minimum = 1e-12, .control_maximum = 1e-6,
      .presets = {1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-12},
      .get = [](const ModelSettings& s) { return json(s.delta); },
      .set = [](ModelSettings& s, const json& v) { s.delta = v.get<double>(); },
      .example = 1e-7});
  table.push_back({
      .name = "bins", .title = "Bins of numeric columns", .cli_flag = "--bins", .value_name = "B",
      .help = "most bins of a numeric column in the model; 'auto' (the default): 32 in the "
              "independent mode, 20 in the random and marginals modes, fewer for small tables in "
              "the others (a rule from the DP row count, ε and the column count)",
      .kind = SettingKind::kInteger, .minimum = 2, .maximum = 1000,
      .has_auto = true, .auto_value = 0, .control_minimum = 2, .control_maximum = 1000,
      .get = [](const ModelSettings& s) { return json(s.bins); },
      .set = [](ModelSettings& s, const json& v) { s.bins = IsAuto(v) ? 0 : v.get<int>(); },
      .example = 17});
  table.push_back({
      .name = "domain_fraction", .title = "Share of ε for the domains",
      .cli_flag = "--domain-fraction", .value_name = "F",
      .help = "share of ε for private domains: categories, numeric bins, missing markers; "
              "'auto' (the default) sets it by a rule from a DP row count and the column types; "
              "0 when every domain is declared public",
      .kind = SettingKind::kReal, .minimum = 0, .maximum = 1, .maximum_inclusive = false,
      .has_auto = true, .auto_value = std::numeric_limits<double>::quiet_NaN(),
      .control_minimum = 0, .control_maximum = 0.99,
      .get = [](const ModelSettings& s) {
        return s.domain_fraction ? json(*s.domain_fraction) : json("auto");
      },
      .set = [](ModelSettings& s, const json& v) {
        if (IsAuto(v)) {
          s.domain_fraction.reset();
        } else {
          s.domain_fraction = v.get<double>();
        }
      },
      .example = 0.125});
  table.push_back({
      .name = "degree", .title = "Parents per attribute (degree)",
      .cli_flag = "--degree", .value_name = "K",
      .help = "correlated mode: at most K parents per attribute (default 2)",
      .kind = SettingKind::kInteger, .minimum = 1, .maximum = 6,
      .control_minimum = 1, .control_maximum = 6, .modes = kCorrelatedOnly,
      .get = [](const ModelSettings& s) { return json(s.degree); },
      .set = [](ModelSettings& s, const json& v) { s.degree = v.get<int>(); },
      .example = 3});
  table.push_back({
      .name = "structure_fraction", .title = "Share of the model's ε for its structure",
      .cli_flag = "--structure-fraction", .value_name = "F",
      .help = "correlated mode: share of the model's ε for learning the network (default 0.15)",
      .kind = SettingKind::kReal, .minimum = 0, .maximum = 1,
      .minimum_inclusive = false, .maximum_inclusive = false,
      .control_minimum = 0.05, .control_maximum = 0.95, .modes = kCorrelatedOnly,
      .get = [](const ModelSettings& s) { return json(s.structure_fraction); },
      .set = [](ModelSettings& s, const json& v) { s.structure_fraction = v.get<double>(); },
      .example = 0.4});
  table.push_back({
      .name = "other_label", .title = "Label of merged categories",
      .help = "the label of the categories merged into one",
      .kind = SettingKind::kText, .described = false,
      .get = [](const ModelSettings& s) { return json(s.other_label); },
      .set = [](ModelSettings& s, const json& v) { s.other_label = v.get<std::string>(); },
      .example = "Rest"});
  table.push_back({
      .name = "threads", .title = "Worker threads", .cli_flag = "--threads", .value_name = "T",
      .help = "worker threads (default: all cores)",
      .kind = SettingKind::kInteger, .minimum = 0, .maximum = 1024,
      .control_minimum = 0, .control_maximum = 1024, .persisted = false, .described = false,
      .get = [](const ModelSettings& s) { return json(s.threads); },
      .set = [](ModelSettings& s, const json& v) { s.threads = v.get<unsigned>(); },
      .example = 3});
  // The control split (engine/evaluate/control_split.h): no flag of its own here, because the
  // CLI's --control-fraction needs --control-out FILE beside it (app/cli/commands.cpp). Not in
  // the description's record of the settings: the ledger's zero-cost entry says it.
  table.push_back({
      .name = "control_fraction", .title = "Control split (share of rows held out)",
      .help = "share of the rows held out at random before anything is learned, to test the "
              "release against attacks (0, the default: none; holding rows out costs utility)",
      .kind = SettingKind::kReal, .minimum = 0, .maximum = 1, .maximum_inclusive = false,
      .control_minimum = 0, .control_maximum = 0.2, .presets = {0, 0.05, 0.1, 0.2},
      .described = false,
      .get = [](const ModelSettings& s) { return json(s.control_fraction); },
      .set = [](ModelSettings& s, const json& v) { s.control_fraction = v.get<double>(); },
      .example = 0.1});
  // --- Deniable mode (plausible deniability, issue 3; deniable_options.h) ---
  table.push_back({
      .name = "k", .title = "k (plausible seeds required)",
      .group = SettingGroup::kDeniable, .cli_flag = "--k", .value_name = "K",
      .help = "deniable: at least K plausible seeds per released record (default 50)",
      .kind = SettingKind::kInteger, .minimum = 1, .maximum = 1e6,
      .control_minimum = 2, .control_maximum = 500, .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) { return json(s.deniable.k); },
      .set = [](ModelSettings& s, const json& v) { s.deniable.k = v.get<int>(); },
      .example = 20});
  table.push_back({
      .name = "gamma", .title = "γ (probability factor)",
      .group = SettingGroup::kDeniable, .cli_flag = "--gamma",
      .value_name = "G",
      .help = "deniable: plausible seeds' probabilities within a factor G > 1 (default 4)",
      .kind = SettingKind::kReal, .minimum = 1, .maximum = kInfinity,
      .minimum_inclusive = false, .maximum_inclusive = false,
      .control_minimum = 1.1, .control_maximum = 20, .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) { return json(s.deniable.gamma); },
      .set = [](ModelSettings& s, const json& v) { s.deniable.gamma = v.get<double>(); },
      .example = 2.5});
  table.push_back({
      .name = "omega_min", .title = "ω, fewest re-sampled attributes",
      .group = SettingGroup::kDeniable, .cli_flag = "--omega",
      .value_name = "W|A-B",
      .help = "deniable: attributes re-sampled per candidate, fixed or a range (default: about "
              "the last 2/3 of them)",
      .kind = SettingKind::kInteger, .minimum = 0, .maximum = 10000,
      .has_auto = true, .auto_value = 0, .control_minimum = 0, .control_maximum = 10000,
      .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) { return json(s.deniable.omega_min); },
      .set = [](ModelSettings& s, const json& v) {
        s.deniable.omega_min = IsAuto(v) ? 0 : v.get<int>();
      },
      .parse_text = [](const std::string& text, ModelSettings& s) {
        if (text == "auto") {
          s.deniable.omega_min = s.deniable.omega_max = 0;
          return OkStatus();
        }
        Status status = ParseOmegaSpec(text, s.deniable);
        if (!status) return Status(InvalidArgument("--" + status.error().message));
        if (s.deniable.omega_max > 10000) {
          return Status(InvalidArgument("--omega must be at most 10000 (got '" + text + "')"));
        }
        return status;
      },
      .format_text = [](const ModelSettings& s) {
        const DeniableOptions& d = s.deniable;
        if (d.omega_min == 0 && d.omega_max == 0) return std::string("auto");
        return d.omega_min == d.omega_max
                   ? std::to_string(d.omega_min)
                   : std::to_string(d.omega_min) + "-" + std::to_string(d.omega_max);
      },
      .example = 3});
  table.push_back({
      .name = "omega_max", .title = "ω, most re-sampled attributes",
      .group = SettingGroup::kDeniable,
      .help = "deniable: the most attributes re-sampled per candidate (set with --omega)",
      .kind = SettingKind::kInteger, .minimum = 0, .maximum = 10000,
      .has_auto = true, .auto_value = 0, .control_minimum = 0, .control_maximum = 10000,
      .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) { return json(s.deniable.omega_max); },
      .set = [](ModelSettings& s, const json& v) {
        s.deniable.omega_max = IsAuto(v) ? 0 : v.get<int>();
      },
      .example = 9});
  table.push_back({
      .name = "epsilon0", .title = "ε0 (noise of the test's threshold)",
      .group = SettingGroup::kDeniable, .cli_flag = "--epsilon0",
      .value_name = "E0",
      .help = "deniable: noise of the randomised test's threshold, Lap(1/E0) (default 1)",
      .kind = SettingKind::kReal, .minimum = 0, .maximum = kInfinity,
      .minimum_inclusive = false, .maximum_inclusive = false,
      .control_minimum = 0.05, .control_maximum = 10, .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) { return json(s.deniable.epsilon0); },
      .set = [](ModelSettings& s, const json& v) { s.deniable.epsilon0 = v.get<double>(); },
      .example = 0.5});
  table.push_back({
      .name = "deterministic_test",
      .title = "Deterministic test (plausible deniability only, no DP)",
      .group = SettingGroup::kDeniable,
      .cli_flag = "--deterministic-test",
      .help = "deniable: Privacy Test 1 ((k, γ)-plausible deniability only, no DP for the "
              "records)",
      .kind = SettingKind::kBool, .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) { return json(s.deniable.deterministic_test); },
      .set = [](ModelSettings& s, const json& v) { s.deniable.deterministic_test = v.get<bool>(); },
      .example = true});
  table.push_back({
      .name = "structure", .title = "Structure learner of the deniable model",
      .group = SettingGroup::kDeniable, .cli_flag = "--structure",
      .value_name = "S",
      .help = "deniable: cfs (the paper's learner) | privbayes | marginals (baseline)",
      .kind = SettingKind::kChoice, .choices = {"cfs", "privbayes", "marginals"},
      .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) {
        return json(DeniableStructureName(s.deniable.structure));
      },
      .set = [](ModelSettings& s, const json& v) {
        const std::string name = v.get<std::string>();
        s.deniable.structure = name == "privbayes" ? DeniableStructure::kPrivBayes
                               : name == "marginals" ? DeniableStructure::kMarginals
                                                     : DeniableStructure::kCfs;
      },
      .example = "privbayes"});
  table.push_back({
      .name = "maxcost", .title = "maxcost (parent configurations per attribute)",
      .group = SettingGroup::kDeniable, .cli_flag = "--maxcost",
      .value_name = "C",
      .help = "deniable: at most C parent configurations per attribute (default 1024)",
      .kind = SettingKind::kInteger, .minimum = 1, .maximum = 1e15,
      .control_minimum = 1, .control_maximum = 1e9, .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) { return json(s.deniable.maxcost); },
      .set = [](ModelSettings& s, const json& v) {
        s.deniable.maxcost = static_cast<std::uint64_t>(v.get<double>());
      },
      .example = 4096});
  table.push_back({
      .name = "split", .title = "Shares of rows for structure, parameters and seeds",
      .group = SettingGroup::kDeniable, .cli_flag = "--split",
      .value_name = "T,P,S",
      .help = "deniable: shares of rows for structure, parameters and seeds (default "
              "0.21,0.21,0.58)",
      .kind = SettingKind::kRealList, .minimum = 0, .maximum = 1,
      .minimum_inclusive = false, .maximum_inclusive = false, .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) {
        return json{s.deniable.split_structure, s.deniable.split_parameters,
                    s.deniable.split_seeds};
      },
      .set = [](ModelSettings& s, const json& v) {
        s.deniable.split_structure = v.at(0).get<double>();
        s.deniable.split_parameters = v.at(1).get<double>();
        s.deniable.split_seeds = v.at(2).get<double>();
      },
      .parse_text = [](const std::string& text, ModelSettings& s) {
        Status status = ParseSplitSpec(text, s.deniable);
        if (!status) return Status(InvalidArgument("--" + status.error().message));
        return status;
      },
      .example = json{0.3, 0.3, 0.4}});
  table.push_back({
      .name = "max_candidates", .title = "Most candidate attempts",
      .group = SettingGroup::kDeniable, .cli_flag = "--max-candidates",
      .value_name = "T",
      .help = "deniable: cap on candidate attempts, fixed before the run (default max(20 n, "
              "100000)); the whole release is accounted over T",
      .kind = SettingKind::kInteger, .minimum = 1, .maximum = 1e15,
      .has_auto = true, .auto_value = 0, .control_minimum = 0, .control_maximum = 1e15,
      .modes = kDeniableOnly,
      .get = [](const ModelSettings& s) { return json(s.deniable.max_candidates); },
      .set = [](ModelSettings& s, const json& v) {
        s.deniable.max_candidates = IsAuto(v) ? 0 : static_cast<std::uint64_t>(v.get<double>());
      },
      .example = 123456});
  // --- Marginals mode (select-measure-generate, issue 10) ---
  table.push_back({
      .name = "mechanism", .title = "Marginals mechanism (AIM or MST)",
      .group = SettingGroup::kMarginals, .cli_flag = "--mechanism",
      .value_name = "M",
      .help = "marginals: aim (adaptive, best utility; the default) | mst (a tree of 2-way "
              "marginals, fastest)",
      .kind = SettingKind::kChoice, .choices = {"aim", "mst"}, .modes = kMarginalsOnly,
      .get = [](const ModelSettings& s) {
        return json(MarginalsMechanismName(s.marginals.mechanism));
      },
      .set = [](ModelSettings& s, const json& v) {
        s.marginals.mechanism = *ParseMarginalsMechanism(v.get<std::string>());
      },
      .example = "mst"});
  table.push_back({
      .name = "rounds", .title = "AIM: most selection rounds",
      .group = SettingGroup::kMarginals, .cli_flag = "--rounds",
      .value_name = "T",
      .help = "marginals, aim: at most T selection rounds (default: a rule from the DP row "
              "count, ρ and the column count, between the column count and 16 × columns)",
      .kind = SettingKind::kInteger, .minimum = 1, .maximum = 100000,
      .has_auto = true, .auto_value = 0, .control_minimum = 0, .control_maximum = 100000,
      .modes = kMarginalsOnly, .aim_only = true,
      .get = [](const ModelSettings& s) { return json(s.marginals.rounds); },
      .set = [](ModelSettings& s, const json& v) {
        s.marginals.rounds = IsAuto(v) ? 0 : v.get<int>();
      },
      .example = 7});
  table.push_back({
      .name = "max_model_mb", .title = "AIM: largest model (MB)",
      .group = SettingGroup::kMarginals, .cli_flag = "--max-model-mb",
      .value_name = "MB",
      .help = "marginals, aim: cap on the model's size in MB (default 2)",
      .kind = SettingKind::kReal, .minimum = 0, .maximum = 4096, .minimum_inclusive = false,
      .has_auto = true, .auto_value = 0, .control_minimum = 0, .control_maximum = 4096,
      .modes = kMarginalsOnly, .aim_only = true,
      .get = [](const ModelSettings& s) { return json(s.marginals.max_model_mb); },
      .set = [](ModelSettings& s, const json& v) {
        s.marginals.max_model_mb = IsAuto(v) ? 0 : v.get<double>();
      },
      // The description records the cap the run used (aim.h's default for auto).
      .describe = [](const ModelSettings& s) {
        return json(s.marginals.max_model_mb > 0 ? s.marginals.max_model_mb : kDefaultAimModelMb);
      },
      .example = 2.5});
  table.push_back({
      .name = "target", .title = "AIM: column whose marginals weigh more",
      .group = SettingGroup::kMarginals, .cli_flag = "--target",
      .value_name = "COLUMN",
      .help = "marginals, aim: weight the workload's marginals that contain COLUMN",
      .kind = SettingKind::kText, .modes = kMarginalsOnly, .aim_only = true,
      .get = [](const ModelSettings& s) { return json(s.marginals.target); },
      .set = [](ModelSettings& s, const json& v) { s.marginals.target = v.get<std::string>(); },
      .describe = [](const ModelSettings& s) {
        return s.marginals.target.empty() ? json() : json(s.marginals.target);
      },
      .example = "income"});
  table.push_back({
      .name = "iterations", .title = "Estimation iterations",
      .group = SettingGroup::kMarginals, .cli_flag = "--iterations",
      .value_name = "N",
      .help = "marginals: mirror-descent iterations of the final estimate (default: mst 2000, "
              "aim 1500)",
      .kind = SettingKind::kInteger, .minimum = 1, .maximum = 1000000,
      .has_auto = true, .auto_value = 0, .control_minimum = 0, .control_maximum = 1000000,
      .modes = kMarginalsOnly,
      .get = [](const ModelSettings& s) { return json(s.marginals.iterations); },
      .set = [](ModelSettings& s, const json& v) {
        s.marginals.iterations = IsAuto(v) ? 0 : v.get<int>();
      },
      .example = 300});
  return table;
}
#pragma GCC diagnostic pop

bool InBounds(const SettingSpec& spec, double x) {
  if (!std::isfinite(x)) return false;
  const bool above = spec.minimum_inclusive ? x >= spec.minimum : x > spec.minimum;
  const bool below = spec.maximum_inclusive ? x <= spec.maximum : x < spec.maximum;
  return above && below;
}

// The number's problem, or nullopt: type first, then bounds.
std::optional<std::string> NumberProblem(const SettingSpec& spec, const json& value) {
  const std::string got = Got(value);
  if (!value.is_number()) {
    return std::string(spec.kind == SettingKind::kInteger ? "expects an integer"
                                                          : "expects a number") + got;
  }
  const double x = value.get<double>();
  if (spec.kind == SettingKind::kInteger && !value.is_number_integer() &&
      !(std::isfinite(x) && std::floor(x) == x)) {
    return "expects an integer" + got;
  }
  if (spec.has_auto && x == spec.auto_value) return std::nullopt;
  if (!InBounds(spec, x)) return "must be " + SettingBoundsText(spec) + got;
  return std::nullopt;
}

}  // namespace

const char* SettingGroupName(SettingGroup group) {
  switch (group) {
    case SettingGroup::kModel: return "";
    case SettingGroup::kDeniable: return "deniable";
    case SettingGroup::kMarginals: return "marginals";
  }
  return "";
}

const std::vector<SettingSpec>& ModelSettingsTable() {
  static const std::vector<SettingSpec> table = MakeTable();
  return table;
}

const SettingSpec* FindSetting(std::string_view name) {
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (name == spec.name) return &spec;
  }
  return nullptr;
}

const SettingSpec& Setting(std::string_view name) {
  const SettingSpec* spec = FindSetting(name);
  assert(spec != nullptr && "Setting: no such row in the settings table");
  return *spec;
}

std::string SettingLabel(const SettingSpec& spec) {
  return *spec.cli_flag ? std::string(spec.cli_flag) : std::string(spec.name);
}

bool SettingApplies(const SettingSpec& spec, const ModelSettings& settings) {
  if ((spec.modes & ModeBit(settings.mode)) == 0) return false;
  return !spec.aim_only || settings.marginals.mechanism == MarginalsMechanism::kAim;
}

std::string NotApplicableMessage(const SettingSpec& spec) {
  if (spec.aim_only) return SettingLabel(spec) + " applies to --mechanism aim only";
  for (SynthesisMode mode : {SynthesisMode::kRandom, SynthesisMode::kIndependent,
                             SynthesisMode::kCorrelated, SynthesisMode::kDeniable,
                             SynthesisMode::kMarginals}) {
    if (spec.modes == ModeBit(mode)) {
      return SettingLabel(spec) + " applies to --mode " + SynthesisModeName(mode) + " only";
    }
  }
  return SettingLabel(spec) + " does not apply to this mode";
}

std::string SettingBoundsText(const SettingSpec& spec) {
  std::string text;
  const auto show = [&spec](double x) {
    return spec.kind == SettingKind::kInteger ? IntegerText(x) : Number(x);
  };
  if (spec.kind == SettingKind::kInteger && spec.minimum_inclusive && spec.maximum_inclusive &&
      std::isfinite(spec.maximum)) {
    text = "between " + show(spec.minimum) + " and " + show(spec.maximum);
  } else if (!std::isfinite(spec.maximum) && !spec.minimum_inclusive && spec.minimum == 0) {
    text = "finite and positive";
  } else if (!std::isfinite(spec.maximum)) {
    text = std::string("finite and ") + (spec.minimum_inclusive ? ">= " : "> ") +
           show(spec.minimum);
  } else {
    text = std::string("in ") + (spec.minimum_inclusive ? "[" : "(") + show(spec.minimum) +
           ", " + show(spec.maximum) + (spec.maximum_inclusive ? "]" : ")");
  }
  if (spec.has_auto) {
    text += spec.auto_value == 0 && spec.minimum > 0 ? ", or 0 / auto for automatic"
                                                     : ", or auto";
  }
  return text;
}

std::optional<std::string> SettingProblem(const SettingSpec& spec, const json& value) {
  if (spec.has_auto && IsAuto(value)) return std::nullopt;
  const std::string got = Got(value);
  switch (spec.kind) {
    case SettingKind::kReal:
    case SettingKind::kInteger:
      return NumberProblem(spec, value);
    case SettingKind::kBool:
      if (!value.is_boolean()) return "expects true or false" + got;
      return std::nullopt;
    case SettingKind::kText:
      if (!value.is_string()) return "expects a string" + got;
      return std::nullopt;
    case SettingKind::kChoice: {
      std::string names;
      for (std::size_t i = 0; i < spec.choices.size(); ++i) {
        names += (i == 0 ? "" : i + 1 == spec.choices.size() ? " or " : ", ") + spec.choices[i];
      }
      if (value.is_string()) {
        for (const std::string& choice : spec.choices) {
          if (value.get<std::string>() == choice) return std::nullopt;
        }
      }
      return "must be " + names + got;
    }
    case SettingKind::kRealList: {
      if (!value.is_array() || value.size() != 3) return "expects 3 numbers" + got;
      for (const json& element : value) {
        if (!element.is_number() || !InBounds(spec, element.get<double>())) {
          return "expects 3 numbers, each " + SettingBoundsText(spec) + got;
        }
      }
      return std::nullopt;
    }
  }
  return std::nullopt;
}

Status SetSettingFromJson(const SettingSpec& spec, const json& value, ModelSettings& settings,
                          const std::string& where) {
  if (auto problem = SettingProblem(spec, value)) {
    return ParseError(where + "." + spec.name + ": " + *problem);
  }
  spec.set(settings, value);
  return OkStatus();
}

Status SetSettingFromText(const SettingSpec& spec, const std::string& text,
                          ModelSettings& settings) {
  if (spec.parse_text != nullptr) return spec.parse_text(text, settings);
  json value;
  if (spec.has_auto && text == "auto") {
    value = "auto";
  } else if (spec.kind == SettingKind::kBool) {
    value = text != "0" && text != "false";
  } else if (spec.kind == SettingKind::kChoice || spec.kind == SettingKind::kText) {
    value = text;
  } else if (spec.kind == SettingKind::kInteger) {
    long long parsed = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), parsed);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
      return InvalidArgument(SettingLabel(spec) + " expects an integer (got '" + text + "')");
    }
    value = parsed;
  } else {
    char* end = nullptr;
    const double parsed = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(parsed)) {
      return InvalidArgument(SettingLabel(spec) + " expects a number (got '" + text + "')");
    }
    value = parsed;
  }
  if (auto problem = SettingProblem(spec, value)) {
    return InvalidArgument(SettingLabel(spec) + " " + *problem);
  }
  spec.set(settings, value);
  return OkStatus();
}

json SettingJson(const SettingSpec& spec, const ModelSettings& settings, bool auto_as_text) {
  json value = spec.get(settings);
  if (auto_as_text && spec.has_auto && value.is_number() &&
      value.get<double>() == spec.auto_value) {
    return "auto";
  }
  return value;
}

std::string SettingText(const SettingSpec& spec, const ModelSettings& settings) {
  if (spec.format_text != nullptr) return spec.format_text(settings);
  const json value = SettingJson(spec, settings, /*auto_as_text=*/true);
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_integer()) return value.dump();
  if (value.is_number()) return Exact(value.get<double>());
  std::string text;
  for (const json& element : value) {
    text += (text.empty() ? "" : ",") + Exact(element.get<double>());
  }
  return text;
}

bool SameTableSettings(const ModelSettings& a, const ModelSettings& b) {
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (spec.persisted && spec.get(a) != spec.get(b)) return false;
  }
  return true;
}

}  // namespace deniable
