// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/deniable/advisor.h"
#include "engine/deniable/audit.h"
#include "engine/deniable/deniable_model.h"
#include "engine/deniable/deniable_synthesizer.h"
#include "engine/dp/geometric_mechanism.h"
#include "engine/marginals/aim.h"
#include "engine/marginals/mst.h"
#include "engine/metrics/marginals.h"
#include "engine/model/band_pairs.h"
#include "engine/model/domains.h"
#include "engine/model/encoding.h"
#include "engine/model/privbayes.h"
#include "engine/model/sampler.h"
#include "engine/pipeline/run_job_internal.h"
#include "engine/pipeline/synthesis_job.h"

namespace deniable {

// What seed-based synthesis needs besides the description: the encoded input (its seeds are
// D_S), the split and the model with its exact tables. Never written to a release.
struct DeniableState {
  EncodedTable data;
  DataSplit split;
  DeniableModel model;
  DeniableOptions options;
  std::vector<std::string> names;  // modelled column names, for ledger labels
};

namespace {

using internal::Number;

// The advanced-composition slack δ'' of the deniable mode's accountant: its batches (219
// entropy queries on Adult, the T attempts) use advanced composition when it is better.
constexpr double kDeniableSlack = 1e-10;
// Independent and correlated modes: share of the model's ε for the dependency search
// (model/dependencies.h), so a column that (nearly) determines another keeps the pair
// consistent; what the search does not spend goes to the rest of the model.
// The independent mode's search selects with the range-bounded exponential mechanism
// (dp/exponential_mechanism.md §1b), the correlated mode's with the plain one
// (PrivBayesOptions::dependency_range_bounded); docs/utility.md, stop 30.
constexpr double kDependencyShare = 0.08;

// Correlated mode: a numeric column's bins, as a parent, merge into at most this many buckets.
constexpr std::uint32_t kParentBuckets = 4;

// Per attribute: the code of "any other value" (-1 when the domain has none).
std::vector<std::int64_t> OtherCodes(const std::vector<ColumnDomain>& domains) {
  std::vector<std::int64_t> codes;
  for (const ColumnDomain& d : domains) {
    codes.push_back(d.has_other ? static_cast<std::int64_t>(d.other_code()) : std::int64_t{-1});
  }
  return codes;
}

// Per attribute: a coarse bucket map for numeric (non-categorical) domains, identity (empty)
// for the others. Public: a function of the domains' layout only.
std::vector<std::vector<std::uint32_t>> NumericParentBuckets(
    const std::vector<ColumnDomain>& domains, std::uint32_t buckets) {
  std::vector<std::vector<std::uint32_t>> maps(domains.size());
  for (std::size_t a = 0; a < domains.size(); ++a) {
    const ColumnDomain& d = domains[a];
    if (d.categorical || static_cast<std::uint32_t>(d.bins) <= buckets) continue;
    maps[a] = CoarseBinBuckets(static_cast<std::uint32_t>(d.bins), d.cardinality() - d.value_codes(),
                               buckets);
  }
  return maps;
}

// A discrete-Laplace row count (sensitivity 1 under add/remove), floored at 0: the one public
// row count every rule of a run uses.
Result<double> NoisyRowCount(std::size_t rows, double epsilon, PrivacyAccountant& accountant,
                             Rng& rng) {
  auto mechanism = GeometricMechanism::Create(epsilon, 1);
  if (!mechanism) return mechanism.error();
  LedgerEntry entry;
  entry.label = "number of rows (for the settings chosen by rule)";
  entry.mechanism = "discrete Laplace";
  entry.partition = "all";
  entry.reference = "model/domain_budget.h; PrivBayes §4.3 (θ-usefulness)";
  entry.epsilon_each = epsilon;
  entry.sensitivity = 1;
  if (Status s = accountant.Spend(entry); !s) return s.error();
  return std::max(0.0, static_cast<double>(
                           mechanism->AddNoise(static_cast<std::int64_t>(rows), rng)));
}

// The marginals mode (issue 10): what the (ε, δ) steps before it (row count, domains) left is
// turned into a zCDP budget: δ_z = the δ left, ρ = the largest ρ whose CKS conversion at δ_z
// still fits (PrivacyAccountant::RemainingRho); MST or AIM spend it as zCDP entries.
Result<MarginalsModel> LearnMarginals(const EncodedTable& data,
                                      const std::vector<ColumnDomain>& domains,
                                      const std::vector<std::string>& names,
                                      const ModelSettings& settings, double public_rows,
                                      PrivacyAccountant& accountant, Rng& rng,
                                      Progress& progress) {
  if (!(accountant.zcdp_delta() > 0)) {
    // Set by the run before the domains (the union may share the block); a caller that built
    // its domains otherwise converts at the δ left.
    const double delta_left = accountant.RemainingToSpend().delta;
    if (!(delta_left > 0)) {
      return FailedPrecondition("the marginals mode needs some of delta left after the domains "
                                "(raise --delta)");
    }
    if (Status s = accountant.SetZcdpDelta(delta_left); !s) return s.error();
  }
  const double rho = accountant.RemainingRhoToSpend();
  if (!(rho > 0)) return FailedPrecondition("no privacy budget left for the marginals");
  const int threads = static_cast<int>(settings.threads);
  // Each domain's missing code (the last one, domain.h) when it has one: MST and AIM drop it
  // if its noisy count is negligible (measure.h CompressDomains).
  std::vector<int> missing_codes, other_codes;
  std::vector<bool> ordered;
  for (const ColumnDomain& d : domains) {
    missing_codes.push_back(d.has_missing ? static_cast<int>(d.missing_code()) : -1);
    other_codes.push_back(d.has_other ? static_cast<int>(d.other_code()) : -1);
    ordered.push_back(!d.categorical && !d.is_geo() && !d.random_strings);
  }
  if (settings.marginals.mechanism == MarginalsMechanism::kMst) {
    MstOptions options;
    options.rho = rho;
    options.threads = threads;
    options.names = names;
    options.missing_codes = missing_codes;
    options.other_codes = other_codes;
    options.ordered = ordered;
    if (settings.marginals.iterations > 0) options.iterations = settings.marginals.iterations;
    return RunMst(data, options, accountant, rng, progress);
  }
  AimOptions options;
  options.rho = rho;
  options.threads = threads;
  options.names = names;
  options.rounds = settings.marginals.rounds;
  options.public_rows = public_rows;
  options.missing_codes = missing_codes;
  options.other_codes = other_codes;
  options.ordered = ordered;
  options.max_model_mb = settings.marginals.max_model_mb;
  if (settings.marginals.iterations > 0) {
    options.iterations = settings.marginals.iterations;
    options.fixed_iterations = true;
  }
  for (const ColumnDomain& d : domains) {
    options.workload_sizes.push_back(d.cardinality() - (d.has_missing ? 1 : 0));
    options.prior_counts.push_back(d.bin_noisy_counts);
    options.prior_variances.push_back(d.bin_noise_variances);
  }
  if (!settings.marginals.target.empty()) {
    const auto it = std::find(names.begin(), names.end(), settings.marginals.target);
    if (it == names.end()) {
      return InvalidArgument("--target: no modelled column '" + settings.marginals.target + "'");
    }
    options.target = static_cast<int>(it - names.begin());
  }
  return RunAim(data, options, accountant, rng, progress);
}

}  // namespace

Result<LearnedModel> LearnModel(const RawTable& table, const Schema& input_schema,
                                const ModelSettings& settings, Rng& rng, Progress& progress) {
  if (auto s = settings.Validate(); !s) return s.error();
  // The schema this mode models (a geo pair may be dissolved into its two columns).
  auto model_schema = ModelSchemaFor(input_schema, settings.mode);
  if (!model_schema) return model_schema.error();
  const Schema& schema = model_schema.value();
  if (ModelledColumns(schema).empty()) {
    return FailedPrecondition("no column is modelled: every column is an identifier or ignored");
  }
  const bool deniable_mode = settings.mode == SynthesisMode::kDeniable;
  // The deniable mode's model also spends the structure learning's δ (the lower bound on
  // |D_T|, eq. 10) and may use advanced composition (slack δ'').
  const PrivacyCost budget =
      deniable_mode ? PrivacyCost{settings.epsilon,
                                  settings.delta + settings.deniable.structure_delta + 1e-9}
                    : PrivacyCost{settings.epsilon, settings.delta};
  auto accountant =
      PrivacyAccountant::Create(budget, deniable_mode ? kDeniableSlack : 0.0);
  if (!accountant) return accountant.error();
  LearnedModel model{Description{}, std::move(accountant.value()), !rng.is_secure(), {}, nullptr,
                     nullptr};
  if (settings.control_fraction > 0) {
    // The control split (engine/evaluate/control_split.h): recorded, costs nothing. The label
    // gives the user's fraction, never the count (that would publish the real row count).
    LedgerEntry held_out;
    held_out.label = "control split: " + Number(100 * settings.control_fraction) +
                     "% of the rows, chosen at random, held out before anything was learned "
                     "(kept aside for the attack tests; never read by the model)";
    held_out.mechanism = "none (rows removed from the input)";
    held_out.partition = "all";
    held_out.reference = "Giomi et al., PETS 2023, §3 (control dataset)";
    if (Status s = model.accountant.Spend(held_out); !s) return s.error();
  }

  // 0. A DP row count: the public fact the rules below use (the domain budget, PrivBayes's
  //    θ-usefulness), kRowCountShare of ε.
  const bool random = settings.mode == SynthesisMode::kRandom;
  const bool marginals = settings.mode == SynthesisMode::kMarginals;
  const std::optional<double> fixed_domain_share =
      random ? std::optional<double>(1.0) : settings.domain_fraction;
  const MissingMarkers markers = MissingMarkersOf(settings.mode);
  auto union_runs_under = [](const DomainBudget& plan) {
    return plan.union_columns > 0 && plan.union_epsilon > 0 &&
           plan.union_zcdp_fraction > 0;
  };
  bool union_runs = false;
  ZcdpUnionPlan union_plan;
  if (marginals) {
    // One zCDP block for the row count, the domains, the set union and the model, converted
    // once at δ_z; the union's coupling τ takes the rest of δ (privacy_accountant.md,
    // "Approximate zCDP entries"). Whether the union runs depends on the schema and the
    // settings only (its share is clamped above 0 whenever a column needs it), not on n̂.
    union_runs = union_runs_under(
        PlanDomainBudget(schema, settings.epsilon, 1.0, fixed_domain_share, markers));
    const double delta_left = model.accountant.RemainingToSpend().delta;
    union_plan = PlanZcdpUnion(settings.epsilon, delta_left);
    const double delta_z = union_runs ? union_plan.delta_z : delta_left;
    if (!(delta_z > 0)) {
      return FailedPrecondition("the marginals mode needs a delta > 0 (raise --delta)");
    }
    if (Status s = model.accountant.SetZcdpDelta(delta_z); !s) return s.error();
    // The ε-DP steps (the row count; the domains' histograms, tries, quadtrees) join the block
    // as ρ = ε²/2 (Bun & Steinke 2016, Prop. 1.4): the row count then costs 0.4% of the
    // block's ρ instead of 2% (its ε = 0.01 outside the block shrank the block's ε to 0.99),
    // and a numeric column's histogram 0.8% instead of 9% (ε = 1).
    if (Status s = model.accountant.FoldPureDpIntoZcdpBlock(); !s) return s.error();
  }
  const double row_count_epsilon = ShareOf(settings.epsilon, kRowCountShare);
  auto noisy_rows = NoisyRowCount(table.num_rows(), row_count_epsilon, model.accountant, rng);
  if (!noisy_rows) return noisy_rows.error();

  // 1. Domains (random mode spends the whole budget there: it uses nothing else), by the rule
  //    of model/domain_budget.h unless the user set the share. In the marginals mode the rules
  //    see the ε the row count leaves nominally (ε − its ε), as in the other modes; the block's
  //    ρ left is what the domains' and the model's steps actually spend.
  const double after_count = marginals ? settings.epsilon - row_count_epsilon
                                       : model.accountant.RemainingToSpend().epsilon;
  DomainOptions domain_options;
  // The marginals mode measures every column's 1-way marginal and drops a missing code whose
  // noisy count is below 3σ: the set union need not decide the missing markers there.
  domain_options.missing_markers = markers;
  domain_options.budget =
      PlanDomainBudget(schema, after_count, *noisy_rows, fixed_domain_share, markers);
  domain_options.delta = settings.delta;
  if (marginals) {
    if (union_runs_under(domain_options.budget) != union_runs) {
      return InternalError("the set union's plan changed with the row count (δ_z was set for it)");
    }
    domain_options.gaussian_counts = true;
    if (union_runs) {
      domain_options.union_in_zcdp_block = true;
      domain_options.delta = union_plan.coupling;
    }
  }
  domain_options.default_bins =
      settings.bins > 0 ? settings.bins
                        : AutomaticBins(settings.mode, *noisy_rows,
                                        after_count - domain_options.budget.total(),
                                        ModelledColumns(schema).size(),
                                        settings.structure_fraction);
  domain_options.other_label = settings.other_label;
  SubProgress domain_progress(progress, 0.0, 0.2);
  auto domains = BuildDomains(table, schema, domain_options, model.accountant, rng, domain_progress);
  if (!domains) return domains.error();

  // 2. The model.
  std::vector<std::uint32_t> cardinalities;
  for (const ColumnDomain& d : domains.value()) cardinalities.push_back(d.cardinality());
  Result<BayesNet> network = UniformNetwork(cardinalities);
  if (!random) {
    SubProgress encode_progress(progress, 0.2, 0.3);
    auto encoded = Encode(table, schema, domains.value(), encode_progress);
    if (!encoded) return encoded.error();
    // What is left of the budget (PrivacyAccountant::RemainingToSpend: never overspent).
    const double model_epsilon = model.accountant.RemainingToSpend().epsilon;
    SubProgress learn_progress(progress, 0.3, 1.0);
    std::vector<std::string> names;
    for (const ColumnDomain& d : domains.value()) names.push_back(d.AttributeName());
    if (settings.mode == SynthesisMode::kIndependent) {
      IndependentOptions options;
      options.epsilon = model_epsilon;
      options.dependency_fraction = kDependencyShare;
      options.public_rows = *noisy_rows;  // already paid for (step 0): sizes the mappings
      options.other_codes = OtherCodes(domains.value());
      options.names = &names;
      for (const ColumnDomain& d : domains.value()) {
        options.prior_counts.push_back(d.bin_noisy_counts);
        options.prior_variances.push_back(d.bin_noise_variances);
      }
      network = LearnIndependent(encoded.value(), options, model.accountant, "all", rng,
                                 learn_progress);
    } else if (settings.mode == SynthesisMode::kCorrelated) {
      PrivBayesOptions options;
      options.degree = settings.degree;
      options.epsilon = model_epsilon;
      options.structure_fraction = settings.structure_fraction;
      options.public_rows = *noisy_rows;  // already paid for (step 0)
      options.dependency_fraction = kDependencyShare;
      options.other_codes = OtherCodes(domains.value());
      // Numeric columns as parents: their ordered bins coarsened into a few buckets (public,
      // from the domains), so that a table such as age | dob fits θ-usefulness.
      options.parent_buckets = NumericParentBuckets(domains.value(), kParentBuckets);
      options.names = &names;
      network = LearnPrivBayes(encoded.value(), options, model.accountant, "all", rng,
                               learn_progress);
    } else if (settings.mode == SynthesisMode::kMarginals) {
      auto learned = LearnMarginals(encoded.value(), domains.value(), names, settings,
                                    *noisy_rows, model.accountant, rng, learn_progress);
      if (!learned) return learned.error();
      model.marginals = std::make_shared<const MarginalsModel>(std::move(learned.value()));
      network = UniformNetwork(cardinalities);
    } else {
      // Plausible deniability (issue #3): D_T, D_P, D_S split under "all"; the model gets what
      // the domains left, on D_T and on D_P each (parallel composition, PD paper §3.5).
      auto state = std::make_shared<DeniableState>();
      state->options = settings.deniable;
      state->options.model_epsilon = model_epsilon;
      state->options.threads = settings.threads;
      state->names = names;
      auto split = SplitRows(encoded->rows, state->options, model.accountant, rng);
      if (!split) return split.error();
      state->split = std::move(split.value());
      auto learned = LearnDeniableModel(
          encoded.value(), state->split, state->options,
          BucketMapsForDomains(domains.value(), state->options.bucket_count), model.accountant,
          rng, learn_progress, &state->names);
      if (!learned) return learned.error();
      state->model = std::move(learned.value());
      network = state->model.network;
      state->data = std::move(encoded.value());
      model.deniable = std::move(state);
    }
    if (!network) return network.error();
  }

  Description& description = model.description;
  description.mode = SynthesisModeName(settings.mode);
  description.parameters = settings.ToJson();
  // What the bins rule chose (from the DP row count and ε: public like the rest).
  if (settings.bins == 0) description.parameters["bins_chosen"] = domain_options.default_bins;
  if (model.marginals) description.parameters["model"] = model.marginals->ToJson();
  if (model.deniable) {
    description.parameters["model"] = model.deniable->model.ToJson(&model.deniable->names);
    // About the description file, so it travels with it (generate prints it).
    description.warnings.push_back(
        "the description holds the DP model only: 'generate' samples it without seeds (the "
        "model's guarantee applies); seed-based synthesis with the privacy test needs the "
        "real data (synthesize)");
  }
  description.schema = schema;
  for (ColumnSchema& column : description.schema.columns) column.stats = ColumnStats{};
  description.domains = std::move(domains.value());
  description.network = std::move(network.value());
  description.privacy = model.accountant.ToJson();
  const PrivacyCost total = model.accountant.Total();
  description.guarantee = {
      {"epsilon", total.epsilon},
      {"delta", total.delta},
      {"scope", "the whole release: description file and any number of synthetic rows "
                "generated from it (post-processing)"},
      {"statement", PlainGuarantee(total.epsilon, total.delta)}};
  if (model.marginals) {  // the zCDP block behind the (ε, δ) (dp/privacy_accountant.md)
    description.guarantee["zcdp"] = {{"rho", model.accountant.RhoOf("all")},
                                      {"conversion_delta", model.accountant.zcdp_delta()}};
  }
  description.reproducible_not_private = model.reproducible_not_private;
  if (model.reproducible_not_private) {
    model.warnings.push_back("made with a fixed seed: reproducible, NOT a private release");
  }
  progress.Report(1.0, "Model learned");
  return model;
}

Result<EncodedTable> GenerateFromDescription(const Description& description, std::size_t rows,
                                             Rng& rng, Progress& progress) {
  if (description.mode == "marginals") {
    if (!description.parameters.contains("model")) {
      return ParseError("description: the marginals mode needs parameters.model");
    }
    auto model = MarginalsModel::FromJson(description.parameters["model"],
                                          description.cardinalities(), "parameters.model");
    if (!model) return model.error();
    progress.Report(0.0, "Sampling the graphical model");
    EncodedTable out = model->Sample(rows, SamplingOptions{}, rng);
    progress.Report(1.0, "Sampled");
    return out;
  }
  auto sample =
      SampleNetwork(description.network, description.cardinalities(), rows, rng, progress);
  if (!sample) return sample.error();
  // A band under a bucketed numeric parent (the correlated mode): post-processing, band_pairs.h.
  CoupleBandsAcrossBuckets(description.network, description.domains, *sample, rng);
  return sample;
}

namespace {

// The plain-words statement of a plausibly deniable release.
std::string DeniableStatement(const ReleaseGuarantees& g, std::size_t rows) {
  std::ostringstream text;
  if (!g.randomized) {
    text << "Each released record could have been produced by at least k = " << g.k
         << " real records whose chances of producing it are within a factor γ = "
         << Number(g.gamma)
         << " of each other ((k, γ)-plausible deniability; the deterministic test gives no "
            "differential privacy for the records).";
    return text.str();
  }
  // The randomised test compares the count with a noisy threshold k + Lap(1/ε0): a record with
  // fewer than k such real records can pass (#12 item 6), so "at least k" is not promised.
  text << "Each released record passed a randomised plausible-deniability test: the number of "
          "real records that could have produced it, with chances within a factor γ = "
       << Number(g.gamma) << " of each other, was compared with a noisy threshold k + Lap(1/ε0) "
       << "(k = " << g.k << ", ε0 = " << Number(g.epsilon0)
       << "), so most records have at least k such real records but a record may have fewer. "
          "What is guaranteed per record is differential privacy: (ε, δ) = ("
       << Number(g.record.cost.epsilon) << ", " << Number(g.record.cost.delta)
       << ") (Theorem 1). ";
  if (!std::isfinite(g.release.epsilon) || !(g.release.delta < 0.5)) {
    text << "The whole release of " << rows << " records has NO meaningful differential-privacy "
         << "guarantee (k is too small for a small per-record δ; raise k or ε0).";
    return text.str();
  }
  text << "Whole release of " << rows << " records, composed over the cap of " << g.attempts_cap
       << " attempts: ε = " << Number(g.release.epsilon) << ", δ = " << Number(g.release.delta)
       << ".";
  if (g.release.epsilon > 5) {
    // Composed over T >= 100,000 attempts the figure is always this large: say what it means.
    text << " An ε that large protects nobody by itself: for the release as a whole, rely on the "
            "per-record guarantees above.";
  }
  return text.str();
}

Result<SyntheticRows> SynthesizeDeniableRows(const LearnedModel& model, std::size_t rows,
                                             Rng& rng, Progress& progress) {
  const DeniableState& state = *model.deniable;
  DeniableOptions options = state.options;
  options.records = rows;
  auto omega = ResolveOmega(options, static_cast<int>(state.data.num_attributes()));
  if (!omega) return omega.error();
  const std::uint64_t cap = ResolveCandidateCap(options, rows);
  // The user's budget covered the domains and the model; the test's cost over the T attempts
  // is set by k, γ, ε0 and T (data-independent). The ledger records it on D_S, so its total is
  // the whole release's guarantee: the budget is raised by exactly that planned cost.
  const ReleaseGuarantees planned = PlanGuarantees(options, omega.value(), model.accountant, cap);
  // A vacuous test cost (deterministic test, or a k too small for any t: δ = 1) is not charged;
  // the summary then says the release has no meaningful DP guarantee.
  const bool charged = !options.deterministic_test && std::isfinite(planned.synthesis.epsilon) &&
                       planned.synthesis.delta < 0.5;
  if (!charged) options.charge_release_to_budget = false;
  auto accountant = model.accountant.WithBudgetRaisedBy(
      charged ? PrivacyCost{planned.synthesis.epsilon, planned.synthesis.delta + kDeniableSlack}
              : PrivacyCost{});
  if (!accountant) return accountant.error();
  auto release = SynthesizeDeniable(state.data, state.split, state.model, options,
                                    accountant.value(), rng, progress);
  if (!release) return release.error();
  SyntheticRows out;
  out.summary.rows = release->records.rows;
  out.summary.candidates = release->stats.attempts;
  out.summary.passed = release->stats.passed;
  out.summary.privacy = accountant->ToJson();
  out.summary.guarantee = release->guarantees.ToJson();
  // The whole release's (ε, δ) at the top, as in every mode (docs/description-format.md);
  // "release" keeps the same cost inside the deniable breakdown, "run" the run's summary.
  out.summary.guarantee["epsilon"] = release->guarantees.release.epsilon;
  out.summary.guarantee["delta"] = release->guarantees.release.delta;
  out.summary.guarantee["scope"] =
      "the whole release: the released records, composed over the cap of candidate attempts, "
      "and the description file";
  out.summary.guarantee["statement"] = DeniableStatement(release->guarantees, release->records.rows);
  out.summary.guarantee["run"] = release->SummaryJson();
  out.summary.text = release->SummaryText();
  out.encoded = std::move(release->records);
  out.deniable_origins = std::make_shared<const ReleaseOrigins>(std::move(release->origins));
  return out;
}

// What the marginals mode measured, and AIM's a-priori error bounds (AIM §5) in brief.
std::string MarginalsSummary(const MarginalsModel& m, const std::vector<ColumnDomain>& domains) {
  std::ostringstream text;
  text << "Model: " << (m.mechanism == "mst" ? "MST" : "AIM") << ", " << m.measured.size()
       << " noisy marginals";
  if (m.rounds > 0) text << " over " << m.rounds << " rounds";
  text << ", " << m.model.tree().cliques().size() << " cliques (" << m.model.tree().TotalCells()
       << " cells).";
  if (!m.consistent_pairs.empty()) {
    auto name = [&](int a) {
      return static_cast<std::size_t>(a) < domains.size()
                 ? domains[static_cast<std::size_t>(a)].AttributeName()
                 : "#" + std::to_string(a);
    };
    text << "\nMade exact (a near-function in the fitted model, λ >= "
         << Number(kConsistentPairLambda) << "):";
    for (std::size_t k = 0; k < m.consistent_pairs.size(); ++k) {
      const ConsistentPair& p = m.consistent_pairs[k];
      text << (k > 0 ? "," : "") << " " << name(p.parent) << " → " << name(p.child);
    }
    text << ".";
  }
  if (!m.error_bounds.empty()) {
    std::vector<double> bounds;
    for (const QueryErrorBound& b : m.error_bounds) {
      if (b.measured) bounds.push_back(b.expected_l1_fraction);
    }
    text << "\nWorkload: " << m.error_bounds.size() << " marginals, " << bounds.size()
         << " inside a measured one";
    if (!bounds.empty()) {
      std::sort(bounds.begin(), bounds.end());
      text << " (expected noise, as total variation: median " << Number(bounds[bounds.size() / 2] / 2)
           << ", worst " << Number(bounds.back() / 2) << "; description: parameters.model.error_bounds)";
    }
    text << ".";
  }
  return text.str();
}

}  // namespace

Result<SyntheticRows> Synthesize(const LearnedModel& model, const RawTable& /*table*/,
                                 std::size_t rows, Rng& rng, Progress& progress) {
  if (model.deniable) return SynthesizeDeniableRows(model, rows, rng, progress);
  auto encoded = model.marginals
                     ? Result<EncodedTable>(model.marginals->Sample(rows, SamplingOptions{}, rng))
                     : GenerateFromDescription(model.description, rows, rng, progress);
  if (!encoded) return encoded.error();
  SyntheticRows out;
  out.encoded = std::move(encoded.value());
  out.summary.rows = rows;
  out.summary.guarantee = model.description.guarantee;
  out.summary.privacy = model.description.privacy;
  std::ostringstream text;
  text << "Synthesized " << rows << " rows in " << model.description.mode << " mode.\n"
       << "Guarantee for the whole release: " << model.description.guarantee["statement"].get<std::string>();
  if (model.marginals) {
    out.summary.model_text = MarginalsSummary(*model.marginals, model.description.domains);
    text << "\n" << out.summary.model_text;
  }
  out.summary.text = text.str();
  return out;
}

Result<DeniablePlan> PlanDeniableRelease(const ModelSettings& settings, std::size_t rows,
                                         std::size_t attributes) {
  if (auto s = settings.Validate(); !s) return s.error();
  DeniableOptions options = settings.deniable;
  options.records = rows;
  auto omega = ResolveOmega(options, static_cast<int>(attributes));
  if (!omega) return omega.error();
  auto scratch = PrivacyAccountant::Create(PrivacyCost{1e300, 0.999}, kDeniableSlack);
  if (!scratch) return scratch.error();
  DeniablePlan plan;
  plan.attempts_cap = ResolveCandidateCap(options, rows);
  const ReleaseGuarantees g = PlanGuarantees(options, omega.value(), scratch.value(),
                                             plan.attempts_cap);
  plan.record = g.randomized ? g.record.cost : PrivacyCost{INFINITY, 1.0};
  plan.record_meets_delta = g.randomized && g.record.meets_delta;
  plan.synthesis = g.synthesis;
  // Domains (and the row count) take at most this share before the run; the model the rest.
  const double domain_epsilon =
      settings.epsilon * (settings.domain_fraction ? *settings.domain_fraction
                                                   : kMaxDomainShare + kRowCountShare);
  const double model_epsilon = settings.epsilon - domain_epsilon;
  plan.release.epsilon = domain_epsilon + std::max(model_epsilon, g.synthesis.epsilon);
  plan.release.delta =
      std::min(1.0, settings.delta + std::max(options.structure_delta + kDeniableSlack,
                                              g.synthesis.delta));
  plan.meaningful = std::isfinite(plan.release.epsilon) && plan.release.delta < 0.5;
  ReleaseGuarantees shown = g;
  shown.release = plan.release;
  if (!plan.meaningful) shown.release = PrivacyCost{INFINITY, 1.0};
  plan.statement = DeniableStatement(shown, rows);
  return plan;
}

Status WriteDeniableAuditFor(const LearnedModel& model, const SyntheticRows& rows,
                             const std::string& directory) {
  if (!model.deniable || !rows.deniable_origins) {
    return InvalidArgument("--audit-dir applies to the deniable mode only");
  }
  const DeniableState& state = *model.deniable;
  DeniableOptions options = state.options;
  options.records = rows.encoded.rows;
  return WriteDeniableAudit(directory, state.model, state.split, rows.encoded,
                            *rows.deniable_origins, options, &state.names);
}

Result<nlohmann::json> AdviseDeniable(const LoadedInput& input, const ModelSettings& settings,
                                      std::string& text, Rng& rng, Progress& progress) {
  if (auto s = settings.Validate(); !s) return s.error();
  // Domains on a scratch accountant: advice is for the owner, never released.
  auto scratch = PrivacyAccountant::Create(PrivacyCost{settings.epsilon, settings.delta});
  if (!scratch) return scratch.error();
  // The owner's own row count stands for n̂ (advice is never released).
  DomainOptions domain_options;
  domain_options.budget =
      PlanDomainBudget(input.schema, settings.epsilon,
                       static_cast<double>(input.table->num_rows()), settings.domain_fraction);
  domain_options.delta = settings.delta;
  domain_options.default_bins =
      settings.bins > 0 ? settings.bins
                        : AutomaticBins(settings.mode,
                                        static_cast<double>(input.table->num_rows()),
                                        settings.epsilon - domain_options.budget.total(),
                                        ModelledColumns(input.schema).size(),
                                        settings.structure_fraction);
  SubProgress domain_progress(progress, 0.0, 0.2);
  auto domains = BuildDomains(*input.table, input.schema, domain_options, scratch.value(), rng,
                              domain_progress);
  if (!domains) return domains.error();
  auto encoded = Encode(*input.table, input.schema, domains.value(), domain_progress);
  if (!encoded) return encoded.error();
  DeniableOptions options = settings.deniable;
  options.model_epsilon = settings.epsilon - domain_options.budget.total();
  options.threads = settings.threads;
  AdviceRequest request;
  SubProgress advise_progress(progress, 0.2, 1.0);
  auto advice = Advise(encoded.value(), options, request,
                       BucketMapsForDomains(domains.value(), options.bucket_count), rng,
                       advise_progress);
  if (!advice) return advice.error();
  text = advice->ToText();
  return advice->ToJson();
}

}  // namespace deniable

namespace deniable {

Result<ReleaseResult> RunRelease(const LoadedInput& input, const ModelSettings& settings,
                                 std::size_t rows, Rng& rng, Progress& progress) {
  if (!input.table) return InvalidArgument("no input table loaded");
  SubProgress learn_progress(progress, 0.0, 0.5);
  auto model = LearnModel(*input.table, input.schema, settings, rng, learn_progress);
  if (!model) return model.error();
  SubProgress sample_progress(progress, 0.5, 0.7);
  auto synthetic = Synthesize(model.value(), *input.table, rows, rng, sample_progress);
  if (!synthetic) return synthetic.error();
  if (model->deniable) {  // the release's ledger and guarantee include the privacy test
    model->description.privacy = synthetic->summary.privacy;
    model->description.guarantee = synthetic->summary.guarantee;
  }
  SubProgress decode_progress(progress, 0.7, 0.85);
  const Description& description = model->description;
  auto decoded = DecodeToRawTable(synthetic->encoded, description.schema, description.domains,
                                  rng, decode_progress);
  if (!decoded) return decoded.error();
  decoded->dialect = input.table->dialect;
  SubProgress compare_progress(progress, 0.85, 1.0);
  CompareOptions compare;
  compare.threads = static_cast<int>(settings.threads);
  auto metrics = CompareTables(*input.table, decoded.value(), input.schema, compare,
                               compare_progress);
  if (!metrics) return metrics.error();
  ReleaseResult result{std::move(model.value()), std::move(synthetic.value()),
                       std::make_shared<const RawTable>(std::move(decoded.value())),
                       std::move(metrics.value())};
  return result;
}

RunEstimate EstimateRun(std::size_t input_rows, std::size_t columns, std::size_t output_rows,
                        const ModelSettings& settings) {
  // Calibrated on this project's benchmarks (bench/README.md) on a 2-core machine: reading,
  // encoding and counting are linear in cells; PrivBayes's structure search grows with the
  // number of candidate parent sets; sampling and writing are linear in output cells.
  const double in_cells = static_cast<double>(input_rows) * static_cast<double>(columns);
  const double out_cells = static_cast<double>(output_rows) * static_cast<double>(columns);
  double seconds = 0.2 + in_cells * 60e-9 + out_cells * 80e-9;
  if (settings.mode == SynthesisMode::kCorrelated) {
    const double m = static_cast<double>(columns);
    double parent_sets = 1;
    for (int d = 0; d < settings.degree; ++d) parent_sets *= m / (d + 1);
    seconds += static_cast<double>(input_rows) * m * parent_sets * 1.5e-9;
  }
  RunEstimate estimate;
  estimate.seconds = seconds;
  // Raw table ~ 4 bytes per cell + dictionaries; encoded tables 2 bytes per cell; decoded output.
  estimate.peak_megabytes = 50 + (in_cells * 7 + out_cells * 14) / 1e6;
  return estimate;
}

}  // namespace deniable
