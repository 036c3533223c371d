// SPDX-License-Identifier: Apache-2.0
// deniable-cli risk-theory / risk: McClure & Reiter's record-level disclosure risk (#11).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/stderr_progress.h"
#include "engine/io/csv_reader.h"
#include "engine/risk/disclosure_risk.h"
#include "engine/risk/table_risk.h"

namespace deniable::cli {
namespace {

// Engine messages start with the parameter's name ("p0 must be in [0, 1] ..."): name the flag.
Error AsFlagError(const Error& error) {
  if (error.code != ErrorCode::kInvalidArgument) return error;
  return InvalidArgument("--" + error.message);
}

Result<double> RequiredDouble(const ParsedArgs& args, const std::string& name) {
  if (!args.has(name)) return InvalidArgument(name + " is required");
  return args.GetDouble(name, 0);
}

std::string Number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

// ---- risk-theory ------------------------------------------------------------------------------

int RunRiskTheory(const ParsedArgs& args) {
  auto p0 = RequiredDouble(args, "--p0");
  if (!p0) return ReportError(p0.error());
  auto epsilon = RequiredDouble(args, "--epsilon");
  if (!epsilon) return ReportError(epsilon.error());
  if (!args.has("--n")) return ReportError(InvalidArgument("--n is required"));
  auto n = args.GetInteger("--n", 0);
  if (!n) return ReportError(n.error());
  auto ns = args.GetInteger("--ns", n.value());
  if (!ns) return ReportError(ns.error());
  auto prior = args.GetDouble("--prior", 0.5);
  if (!prior) return ReportError(prior.error());
  if (ns.value() == 0) return ReportError(InvalidArgument("--ns must be at least 1 (got 0)"));
  auto risk = ExpectedRiskIncrease({.p0 = p0.value(), .epsilon = epsilon.value(),
                                    .n = n.value(), .ns = ns.value(), .prior = prior.value()});
  if (!risk) return ReportError(AsFlagError(risk.error()));
  const ExpectedRisk& r = risk.value();
  if (args.has("--json")) {
    nlohmann::json quantiles = nlohmann::json::object();
    for (const auto& [level, value] : r.quantiles) quantiles[Number(level)] = value;
    nlohmann::json histogram = nlohmann::json::array();
    for (std::size_t i = 0; i < r.histogram.size(); ++i) {
      histogram.push_back({{"from", i / 10.0}, {"to", (i + 1) / 10.0},
                           {"probability", r.histogram[i]}});
    }
    const nlohmann::json out = {
        {"p0", p0.value()}, {"epsilon", epsilon.value()}, {"n", n.value()}, {"ns", r.ns},
        {"prior", prior.value()}, {"alpha", r.alpha}, {"beta", r.alpha},
        {"ER", r.expected_increase},
        {"R", {{"mean", r.mean_risk}, {"max", r.max_risk}, {"quantiles", quantiles},
               {"histogram", histogram}}}};
    std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
  }
  std::printf("McClure & Reiter (2012): D ~ Bernoulli(p0 = %s)^n, n = %lld; D* = %lld draws from "
              "the Beta posterior predictive\n(Thm. 1: alpha = beta = 1/(e^(epsilon/ns) - 1) = %s "
              "at epsilon = %s: epsilon-DP). Intruder prior w = %s.\n\n",
              Number(p0.value()).c_str(), static_cast<long long>(n.value()),
              static_cast<long long>(r.ns), Number(r.alpha).c_str(),
              Number(epsilon.value()).c_str(), Number(prior.value()).c_str());
  std::printf("Expected increase in risk ER (eqs. 6-7): %s\n", Number(r.expected_increase).c_str());
  std::printf("Absolute risk R_j (eq. 5) over (X, X*): mean %s, max %s\n",
              Number(r.mean_risk).c_str(), Number(r.max_risk).c_str());
  std::printf("  quantiles:");
  for (const auto& [level, value] : r.quantiles) {
    std::printf("  %s%%: %s", Number(100 * level).c_str(), Number(value).c_str());
  }
  std::printf("\n  distribution:\n");
  for (std::size_t i = 0; i < r.histogram.size(); ++i) {
    std::printf("    R_j in [%.1f, %.1f%c  %s\n", i / 10.0, (i + 1) / 10.0, i == 9 ? ']' : ')',
                Number(r.histogram[i]).c_str());
  }
  return kExitOk;
}

// ---- risk -------------------------------------------------------------------------------------

Result<TableRiskOptions> ReadRiskOptions(const ParsedArgs& args) {
  TableRiskOptions o;
  o.sensitive = args.get("--sensitive").value_or("");
  if (o.sensitive.empty()) return InvalidArgument("--sensitive COLUMN is required");
  if (auto quasi = args.get("--quasi")) {
    o.quasi_identifiers = SplitNames(*quasi);
    for (const std::string& name : o.quasi_identifiers) {
      if (name.empty()) return InvalidArgument("--quasi has an empty column name ('" + *quasi + "')");
    }
  }
  if (args.has("--epsilon") && args.has("--epsilons")) {
    return InvalidArgument("give --epsilon E or --epsilons LIST|auto, not both");
  }
  if (args.has("--epsilon")) {
    auto epsilon = args.GetDouble("--epsilon", 0);
    if (!epsilon) return epsilon.error();
    o.epsilons = {epsilon.value()};
  } else if (auto list = args.get("--epsilons"); list && *list != "auto") {
    for (const std::string& item : SplitNames(*list)) {
      char* end = nullptr;
      const double value = std::strtod(item.c_str(), &end);
      if (item.empty() || end != item.c_str() + item.size()) {
        return InvalidArgument("--epsilons must be 'auto' or numbers separated by commas (got '" +
                               *list + "')");
      }
      o.epsilons.push_back(value);
    }
  }
  auto max_rr = args.GetDouble("--max-rr", o.max_relative_risk);
  if (!max_rr) return max_rr.error();
  o.max_relative_risk = max_rr.value();
  auto max_r = args.GetDouble("--max-r", o.max_absolute_risk);
  if (!max_r) return max_r.error();
  o.max_absolute_risk = max_r.value();
  auto above = args.GetDouble("--max-rr-above", o.max_relative_risk_above);
  if (!above) return above.error();
  o.max_relative_risk_above = above.value();
  auto quantile = args.GetDouble("--quantile", o.quantile);
  if (!quantile) return quantile.error();
  o.quantile = quantile.value();
  auto priors = args.GetInteger("--priors", o.prior_points);
  if (!priors) return priors.error();
  if (priors.value() < 1 || priors.value() > 100000) {
    return InvalidArgument("--priors must be between 1 and 100000 (got " +
                           std::to_string(priors.value()) + ")");
  }
  o.prior_points = static_cast<int>(priors.value());
  return o;
}

std::string CellText(const RiskGroup& group) {
  std::string text;
  for (const std::string& value : group.cell) text += (text.empty() ? "" : ", ") + value;
  return text.empty() ? "(all records)" : text;
}

int RunRisk(const ParsedArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  const bool quiet = args.has("--quiet");
  auto options = ReadRiskOptions(args);
  if (!options) return ReportError(options.error());
  StderrProgress progress(quiet || args.has("--json"));
  auto table = ReadCsv(args.positionals()[0], CsvReadOptions{}, progress);
  progress.Finish();
  if (!table) return ReportError(table.error());
  auto report = AnalyseTableRisk(table.value(), options.value());
  if (!report) return ReportError(AsFlagError(report.error()));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const TableRiskReport& r = report.value();
  const TableRiskOptions& o = options.value();
  // The riskiest groups at the smallest ε with records outside the region.
  const EpsilonRisk* failing = nullptr;
  for (const EpsilonRisk& level : r.per_epsilon) {
    if (level.records_outside > 0) {
      failing = &level;
      break;
    }
  }
  std::vector<std::size_t> riskiest;
  if (failing != nullptr) {
    for (std::size_t g = 0; g < r.groups.size(); ++g) {
      if (!failing->groups[g].inside) riskiest.push_back(g);
    }
    std::sort(riskiest.begin(), riskiest.end(), [&](std::size_t a, std::size_t b) {
      return failing->groups[a].max_relative > failing->groups[b].max_relative;
    });
    if (riskiest.size() > 10) riskiest.resize(10);
  }
  if (args.has("--json")) {
    nlohmann::json levels = nlohmann::json::array();
    for (const EpsilonRisk& level : r.per_epsilon) {
      levels.push_back({{"epsilon", level.epsilon}, {"records_outside", level.records_outside},
                        {"groups_outside", level.groups_outside}, {"max_RR", level.max_relative},
                        {"max_R_at_prior_half", level.max_absolute_at_half}});
    }
    nlohmann::json worst = nlohmann::json::array();
    for (std::size_t g : riskiest) {
      worst.push_back({{"cell", r.groups[g].cell}, {"value", r.groups[g].value},
                       {"records", r.groups[g].records},
                       {"cell_records", r.groups[g].cell_records},
                       {"max_RR", failing->groups[g].max_relative},
                       {"R_at_prior_half", failing->groups[g].absolute_at_half},
                       {"prior", failing->groups[g].worst_prior}});
    }
    nlohmann::json out = {
        {"for_owner_only", true}, {"sensitive", o.sensitive},
        {"quasi_identifiers", o.quasi_identifiers}, {"rows", r.rows}, {"cells", r.cells},
        {"groups", r.groups.size()}, {"categories", r.categories},
        {"region", {{"max_RR", o.max_relative_risk}, {"max_R", o.max_absolute_risk},
                    {"max_RR_above", o.max_relative_risk_above}}},
        {"quantile", o.quantile}, {"prior_points", o.prior_points}, {"epsilons", levels},
        {"recommended_epsilon", nullptr}, {"seconds", seconds}};
    if (r.recommended_epsilon) out["recommended_epsilon"] = *r.recommended_epsilon;
    if (failing != nullptr) {
      out["riskiest"] = {{"epsilon", failing->epsilon}, {"groups", worst}};
    }
    std::printf("%s\n", out.dump(2).c_str());
    return kExitOk;
  }
  std::printf("For your eyes only: these risks are computed from the real data; do not publish "
              "them.\n\n");
  std::string quasi_text;
  for (const std::string& name : o.quasi_identifiers) quasi_text += (quasi_text.empty() ? "" : ", ") + name;
  std::printf("Sensitive attribute '%s' (%d values); cells from %s: %lld cells, %zu (cell, value) "
              "groups, %lld records.\n",
              o.sensitive.c_str(), r.categories,
              quasi_text.empty() ? "no quasi-identifier" : quasi_text.c_str(),
              static_cast<long long>(r.cells), r.groups.size(), static_cast<long long>(r.rows));
  std::printf("Synthesizer: per cell, the Dirichlet posterior predictive with n_s = the cell's "
              "size (McClure & Reiter, Thm. 1).\nAcceptable: RR <= %s while R <= %s; above R = "
              "%s, RR <= %s. Priors: %d values in (0, 1); R at the %s quantile of the release.\n\n",
              Number(o.max_relative_risk).c_str(), Number(o.max_absolute_risk).c_str(),
              Number(o.max_absolute_risk).c_str(), Number(o.max_relative_risk_above).c_str(),
              o.prior_points, Number(o.quantile).c_str());
  std::printf("  %-10s %16s %15s %12s %14s\n", "epsilon", "records outside", "groups outside",
              "max RR", "max R (w=0.5)");
  for (const EpsilonRisk& level : r.per_epsilon) {
    std::printf("  %-10s %16lld %15lld %12s %14s\n", Number(level.epsilon).c_str(),
                static_cast<long long>(level.records_outside),
                static_cast<long long>(level.groups_outside), Number(level.max_relative).c_str(),
                Number(level.max_absolute_at_half).c_str());
  }
  if (r.recommended_epsilon) {
    std::printf("\nRecommended epsilon: %s (the largest of the grid with every record inside the "
                "region).\n", Number(*r.recommended_epsilon).c_str());
  } else {
    std::printf("\nNo epsilon of the grid keeps every record inside the region: lower epsilon, "
                "use fewer quasi-identifiers, or widen the region.\n");
  }
  if (failing != nullptr) {
    std::printf("Riskiest groups at epsilon = %s:\n", Number(failing->epsilon).c_str());
    for (std::size_t g : riskiest) {
      std::printf("  [%s] %s = '%s': %lld of %lld records, max RR %s (at w = %s), R %s at w = 0.5\n",
                  CellText(r.groups[g]).c_str(), o.sensitive.c_str(), r.groups[g].value.c_str(),
                  static_cast<long long>(r.groups[g].records),
                  static_cast<long long>(r.groups[g].cell_records),
                  Number(failing->groups[g].max_relative).c_str(),
                  Number(failing->groups[g].worst_prior).c_str(),
                  Number(failing->groups[g].absolute_at_half).c_str());
    }
  }
  std::printf("(%.2f s)\n", seconds);
  return kExitOk;
}

const OptionSpec kJson{"--json", "", "", "print JSON instead of text"};

}  // namespace

std::vector<Command> RiskCommands() {
  return {
      {{"risk-theory", "--p0 P --epsilon E --n N [--ns NS] [--prior W] [--json]",
        "McClure & Reiter's binary risk: expected increase ER and the distribution of R_j",
        "D holds n Bernoulli(p0) values; D* holds ns draws from the Beta posterior predictive\n"
        "with alpha = beta = 1/(e^(epsilon/ns) - 1), which is epsilon-DP (Thm. 1). The intruder\n"
        "knows every record but one and has prior W on Y_j = 1. Prints ER (eqs. 6-7) and the\n"
        "distribution of the absolute risk R_j (eq. 5) over (X, X*). No data is read.",
        {},
        {{"--p0", "", "P", "probability of a one in the population, in [0, 1]"},
         {"--epsilon", "", "E", "the synthesizer's epsilon (> 0)"},
         {"--n", "", "N", "records in D (1 to 1,000,000)"},
         {"--ns", "", "NS", "synthetic records (default N)"},
         {"--prior", "", "W", "the intruder's prior P(Y_j = 1), in (0, 1) (default 0.5)"},
         kJson}},
       RunRiskTheory},
      {{"risk", "REAL.csv --sensitive COL [--quasi A,B] [--epsilon E | --epsilons auto|LIST] [--max-rr 10 --max-r 0.1] [--json]",
        "record-level disclosure risk (R_j, RR_j) per epsilon, and the largest safe epsilon",
        "For each record j, the intruder knows every other record, the quasi-identifiers (the\n"
        "cells) and the synthesizer (per cell, the Dirichlet posterior predictive, epsilon-DP\n"
        "for the sensitive value), and has a prior w on j's sensitive value, for w over a grid in\n"
        "(0, 1). A record is inside the acceptable region when, for every w, RR_j <= max-rr while\n"
        "R_j <= max-r, or RR_j <= max-rr-above (McClure & Reiter §4). The recommendation is the\n"
        "largest epsilon of the grid whose records are all inside. The figures come from the\n"
        "real data: they are for the data owner only.",
        {"REAL.csv"},
        {{"--sensitive", "", "COL", "the sensitive categorical column"},
         {"--quasi", "", "A,B", "quasi-identifier columns whose values form the cells"},
         {"--epsilon", "", "E", "analyse this epsilon only"},
         {"--epsilons", "", "LIST", "'auto' (0.01 to 1000, 1-2-5 steps; the default) or E1,E2,..."},
         {"--max-rr", "", "A", "largest acceptable relative risk RR_j (default 10)"},
         {"--max-r", "", "B", "largest absolute risk R_j at which max-rr applies (default 0.1)"},
         {"--max-rr-above", "", "C", "largest RR_j accepted where R_j > max-r (default 1.05)"},
         {"--quantile", "", "Q", "R_j at this quantile of the release's randomness (default 0.95)"},
         {"--priors", "", "N", "prior grid: N equally spaced values in (0, 1) (default 1000)"},
         kJson, {"--quiet", "-q", "", "no progress output"}}},
       RunRisk},
  };
}

}  // namespace deniable::cli
