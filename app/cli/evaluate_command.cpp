// SPDX-License-Identifier: Apache-2.0
// deniable-cli evaluate: attacks on a release and its machine-learning utility (#11).
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "app/cli/commands.h"
#include "app/cli/stderr_progress.h"
#include "engine/evaluate/evaluate.h"
#include "engine/io/csv_reader.h"

namespace deniable::cli {
namespace {

std::string Percent(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f%%", 100 * x);
  return buffer;
}

std::string Fixed(double x, int digits = 3) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, x);
  return buffer;
}

nlohmann::json RateJson(const RateEstimate& r) {
  return {{"rate", r.rate},
          {"successes", r.successes},
          {"trials", r.trials},
          {"ci", {r.interval.low, r.interval.high}}};
}

nlohmann::json RiskJson(const AttackRisk& a) {
  return {{"risk", a.risk},
          {"ci", {a.risk_interval.low, a.risk_interval.high}},
          {"train", RateJson(a.train)},
          {"control", RateJson(a.control)},
          {"naive", RateJson(a.naive)},
          {"attack_beats_naive", a.attack_beats_naive}};
}

nlohmann::json DistanceJson(const DistanceSummary& d) {
  return {{"mean", d.mean}, {"p05", d.p05}, {"median", d.median}, {"zero_share", d.zero_share}};
}

std::vector<std::string> Names(const EvaluateReport& r, const std::vector<std::size_t>& columns) {
  std::vector<std::string> names;
  for (std::size_t c : columns) names.push_back(r.columns[c]);
  return names;
}

nlohmann::json ReportJson(const EvaluateReport& r, double seconds) {
  const CopyCounts& c = r.copies;
  nlohmann::json out = {
      {"for_owner_only", true},
      {"rows",
       {{"train", r.train_rows}, {"control", r.control_rows}, {"synthetic", r.synthetic_rows}}},
      {"columns", r.columns},
      {"quasi_identifiers", r.quasi_identifiers},
      {"sensitive", r.sensitive},
      {"notes", r.notes},
      {"copies",
       {{"synthetic_rows", c.synthetic_rows},
        {"of_train", c.copies_of_train},
        {"of_unique_train", c.copies_of_unique_train},
        {"train_rows_copied", c.train_rows_copied},
        {"of_control", c.copies_of_control},
        {"of_unique_control", c.copies_of_unique_control},
        {"control_rows_copied", c.control_rows_copied}}},
      {"dcr",
       {{"synthetic_rows", r.dcr.synthetic_rows},
        {"reference_rows", r.dcr.reference_rows},
        {"to_train", DistanceJson(r.dcr.to_train)},
        {"to_train_all", DistanceJson(r.dcr.to_train_all)},
        {"to_control", DistanceJson(r.dcr.to_control)},
        {"closer_to_train", RateJson(r.dcr.closer_to_train)}}},
      {"singling_out", nullptr},
      {"linkability", nullptr},
      {"inference", nullptr},
      {"utility", nullptr},
      {"seconds", seconds}};
  if (r.singling_out) {
    out["singling_out"] = RiskJson(r.singling_out->risk);
    out["singling_out"]["predicates"] = r.singling_out->predicates;
    out["singling_out"]["control_size_corrected"] = r.singling_out->control_corrected;
  }
  if (r.linkability) {
    out["linkability"] = RiskJson(r.linkability->risk);
    out["linkability"]["columns_a"] = Names(r, r.linkability->columns_a);
    out["linkability"]["columns_b"] = Names(r, r.linkability->columns_b);
  }
  if (r.inference) out["inference"] = RiskJson(r.inference->risk);
  if (r.utility) {
    const MlUtilityReport& u = *r.utility;
    const auto scores = [&](const ModelScores& s) -> nlohmann::json {
      if (u.classification) return {{"accuracy", s.accuracy}, {"auc", s.auc}};
      return {{"r2", s.r2}};
    };
    nlohmann::json importances = nlohmann::json::array();
    for (const FeatureImportance& f : u.importances) {
      importances.push_back({{"column", f.name}, {"real", f.real}, {"synthetic", f.synthetic}});
    }
    out["utility"] = {
        {"target", u.target},
        {"task", u.classification ? "classification" : "regression"},
        {"classes", u.classes},
        {"test_rows", u.test_rows},
        {"train_on_real", scores(u.real_model)},
        {"train_on_synthetic", scores(u.synthetic_model)},
        {"agreement", u.agreement ? nlohmann::json(*u.agreement) : nlohmann::json(nullptr)},
        {"distinguish",
         {{"accuracy", RateJson(u.distinguish_accuracy)},
          {"auc", u.distinguish_auc},
          {"test_rows", u.distinguish_test_rows}}},
        {"importance_gain", importances}};
  }
  return out;
}

void PrintRisk(const char* name, const AttackRisk& a, const std::string& detail) {
  std::printf(
      "%-14s risk %6s  [%s, %s]   success on training rows %s, on control rows %s, "
      "random guess %s%s\n",
      name, Fixed(a.risk).c_str(), Fixed(a.risk_interval.low).c_str(),
      Fixed(a.risk_interval.high).c_str(), Percent(a.train.rate).c_str(),
      Percent(a.control.rate).c_str(), Percent(a.naive.rate).c_str(), detail.c_str());
}

void PrintText(const EvaluateReport& r, double seconds) {
  std::printf("For your eyes only: every figure below is computed from the real rows.\n\n");
  std::printf("Rows: %zu training, %zu control (held out), %zu synthetic; %zu columns compared.\n",
              r.train_rows, r.control_rows, r.synthetic_rows, r.columns.size());
  std::string quasi;
  for (const std::string& q : r.quasi_identifiers) quasi += (quasi.empty() ? "" : ", ") + q;
  std::printf("Attacker knows: %s\nAttacker's target: %s\n", quasi.c_str(), r.sensitive.c_str());
  for (const std::string& note : r.notes) std::printf("Note: %s\n", note.c_str());
  const CopyCounts& c = r.copies;
  std::printf(
      "\nExact copies among %llu synthetic rows: %llu of training rows (%llu of rows unique "
      "in the training set; %llu distinct training rows copied); baseline: %llu of control "
      "rows (%llu unique).\n",
      static_cast<unsigned long long>(c.synthetic_rows),
      static_cast<unsigned long long>(c.copies_of_train),
      static_cast<unsigned long long>(c.copies_of_unique_train),
      static_cast<unsigned long long>(c.train_rows_copied),
      static_cast<unsigned long long>(c.copies_of_control),
      static_cast<unsigned long long>(c.copies_of_unique_control));
  std::printf(
      "Distance to closest record (%zu synthetic rows):\n"
      "  to all %zu training rows: median %s, 5th percentile %s, at distance 0 %s\n",
      r.dcr.synthetic_rows, r.train_rows, Fixed(r.dcr.to_train_all.median).c_str(),
      Fixed(r.dcr.to_train_all.p05).c_str(), Percent(r.dcr.to_train_all.zero_share).c_str());
  std::printf(
      "  against equally many (%zu) training and control rows:\n"
      "  to training: median %s, 5th percentile %s, at distance 0 %s\n"
      "  to control:  median %s, 5th percentile %s, at distance 0 %s\n"
      "  closer to training than to control: %s [%s, %s] (1/2 when the release does not "
      "lean towards its training rows)\n\n",
      r.dcr.reference_rows, Fixed(r.dcr.to_train.median).c_str(), Fixed(r.dcr.to_train.p05).c_str(),
      Percent(r.dcr.to_train.zero_share).c_str(), Fixed(r.dcr.to_control.median).c_str(),
      Fixed(r.dcr.to_control.p05).c_str(), Percent(r.dcr.to_control.zero_share).c_str(),
      Percent(r.dcr.closer_to_train.rate).c_str(),
      Percent(r.dcr.closer_to_train.interval.low).c_str(),
      Percent(r.dcr.closer_to_train.interval.high).c_str());
  std::printf(
      "Attacks (Anonymeter-style; risk = (training - control)/(1 - control), 95%% "
      "interval):\n");
  if (r.singling_out) {
    PrintRisk("singling out", r.singling_out->risk,
              " (" + std::to_string(r.singling_out->predicates) + " predicates)");
  }
  if (r.linkability) PrintRisk("linkability", r.linkability->risk, "");
  if (r.inference) PrintRisk("inference", r.inference->risk, "");
  if (r.utility) {
    const MlUtilityReport& u = *r.utility;
    std::printf(
        "\nMachine-learning utility (XGBoost; target '%s', tested on the %zu control "
        "rows):\n",
        u.target.c_str(), u.test_rows);
    if (u.classification) {
      std::printf(
          "  trained on real rows:      accuracy %s, AUC %s\n"
          "  trained on synthetic rows: accuracy %s, AUC %s\n"
          "  the two models agree on %s of the test rows\n",
          Fixed(u.real_model.accuracy).c_str(), Fixed(u.real_model.auc).c_str(),
          Fixed(u.synthetic_model.accuracy).c_str(), Fixed(u.synthetic_model.auc).c_str(),
          Percent(u.agreement.value_or(0)).c_str());
    } else {
      std::printf("  trained on real rows: R² %s; on synthetic rows: R² %s\n",
                  Fixed(u.real_model.r2).c_str(), Fixed(u.synthetic_model.r2).c_str());
    }
    std::printf(
        "  telling real from synthetic rows: accuracy %s [%s, %s], AUC %s on %zu held-out "
        "rows (0.5 = indistinguishable)\n",
        Fixed(u.distinguish_accuracy.rate).c_str(),
        Fixed(u.distinguish_accuracy.interval.low).c_str(),
        Fixed(u.distinguish_accuracy.interval.high).c_str(), Fixed(u.distinguish_auc).c_str(),
        u.distinguish_test_rows);
    std::printf("  feature importance (share of gain)   real  synthetic\n");
    for (const FeatureImportance& f : u.importances) {
      std::printf("    %-32s %6s %10s\n", f.name.c_str(), Percent(f.real).c_str(),
                  Percent(f.synthetic).c_str());
    }
  }
  std::printf("(%.2f s)\n", seconds);
}

Result<RawTable> ReadOther(const std::string& path, const InputSettings& input,
                           Progress& progress) {
  return ReadCsv(path, input.csv, progress);
}

Result<long long> BoundedInteger(const ParsedArgs& args, const std::string& name,
                                 long long fallback, long long low, long long high) {
  auto value = args.GetInteger(name, fallback);
  if (!value) return value.error();
  if (value.value() < low || value.value() > high) {
    return InvalidArgument(name + " must be between " + std::to_string(low) + " and " +
                           std::to_string(high) + " (got " + std::to_string(value.value()) + ")");
  }
  return value;
}

int RunEvaluate(const ParsedArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  const bool json = args.has("--json");
  const bool quiet = args.has("--quiet");
  auto control_path = args.get("--control");
  if (!control_path) {
    return ReportError(InvalidArgument(
        "--control CONTROL.csv is required: the rows held out before training (synthesize "
        "--control-fraction F --control-out CONTROL.csv)"));
  }
  EvaluateOptions options;
  if (auto quasi = args.get("--quasi")) {
    options.quasi_identifiers = SplitNames(*quasi);
    for (const std::string& name : options.quasi_identifiers) {
      if (name.empty()) {
        return ReportError(InvalidArgument("--quasi has an empty column name ('" + *quasi + "')"));
      }
    }
  }
  options.sensitive = args.get("--sensitive").value_or("");
  options.target = args.get("--target").value_or("");
  auto attacks = BoundedInteger(args, "--attacks", 2000, 1, 1000000);
  if (!attacks) return ReportError(attacks.error());
  options.attacks = static_cast<std::size_t>(attacks.value());
  auto threads = BoundedInteger(args, "--threads", 2, 1, 256);
  if (!threads) return ReportError(threads.error());
  options.threads = static_cast<unsigned>(threads.value());
  auto ml_threads = BoundedInteger(args, "--ml-threads", 1, 1, 256);
  if (!ml_threads) return ReportError(ml_threads.error());
  options.ml_threads = static_cast<unsigned>(ml_threads.value());
  auto seed = args.GetInteger("--seed", 0);
  if (!seed) return ReportError(seed.error());
  options.seed = static_cast<std::uint64_t>(seed.value());

  auto input = ReadInputSettings(args, args.positionals()[0]);
  if (!input) return ReportError(input.error());
  StderrProgress progress(quiet || json);
  SubProgress p_real(progress, 0, 0.1), p_synthetic(progress, 0.1, 0.15),
      p_control(progress, 0.15, 0.2), p_evaluate(progress, 0.2, 1);
  auto real = LoadInput(input.value(), p_real);
  if (!real) {
    progress.Finish();
    return ReportError(real.error());
  }
  auto synthetic = ReadOther(args.positionals()[1], input.value(), p_synthetic);
  if (!synthetic) {
    progress.Finish();
    return ReportError(synthetic.error());
  }
  auto control = ReadOther(*control_path, input.value(), p_control);
  if (!control) {
    progress.Finish();
    return ReportError(control.error());
  }
  auto report = EvaluateRelease(*real->table, synthetic.value(), control.value(), real->schema,
                                options, p_evaluate);
  progress.Finish();
  if (!report) {
    Error error = report.error();
    for (const char* flag : {"sensitive", "quasi-identifier", "target", "attacks"}) {
      if (error.code == ErrorCode::kInvalidArgument && error.message.rfind(flag, 0) == 0) {
        error.message = "--" +
                        std::string(flag == std::string("quasi-identifier") ? "quasi" : flag) +
                        error.message.substr(std::string(flag).size());
      }
    }
    return ReportError(error);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (json) {
    std::printf("%s\n", ReportJson(report.value(), seconds).dump(2).c_str());
  } else {
    PrintText(report.value(), seconds);
  }
  return kExitOk;
}

}  // namespace

std::vector<Command> EvaluateCommands() {
  return {
      {{"evaluate",
        "REAL.csv SYNTHETIC.csv --control CONTROL.csv [--schema S.json] [--quasi A,B] "
        "[--sensitive C] [--target T] [--json]",
        "attacks on a release (singling out, linkability, inference, copies, DCR) and ML utility",
        "REAL.csv holds the rows the release was made from, CONTROL.csv rows held out before\n"
        "training (synthesize --control-fraction F --control-out CONTROL.csv). Each attack of\n"
        "Anonymeter (Giomi et al., PETS 2023) runs with the synthetic rows against the training\n"
        "rows and, as the baseline, against the control rows; risk = (training - control) /\n"
        "(1 - control) with a 95% interval. The quasi-identifiers are what the attacker knows,\n"
        "the sensitive column what it wants to learn (defaults: the schema's roles, else every\n"
        "column but the last). With --target, XGBoost models trained on real and on synthetic\n"
        "rows are compared on the control rows, and a classifier tries to tell real from\n"
        "synthetic rows. The figures come from the real data: for the data owner only.",
        {"REAL.csv", "SYNTHETIC.csv"},
        {{"--control", "", "CONTROL.csv", "the held-out control rows (required)"},
         {"--schema", "", "S.json", "column settings of the real table (types, roles)"},
         {"--quasi", "", "A,B", "quasi-identifiers: the columns the attacker knows"},
         {"--sensitive", "", "C", "the column the attacker wants to infer"},
         {"--target", "", "T", "ML utility: the column to predict"},
         {"--attacks", "", "N", "predicates / target rows per attack (default 2000)"},
         {"--seed", "", "S", "seed of the attacks' random choices (default 0)"},
         {"--threads", "", "T", "nearest-neighbour search threads (default 2)"},
         {"--ml-threads", "", "T", "XGBoost threads (default 1: see engine/evaluate/README.md)"},
         {"--delimiter", "", "C", "field delimiter (default: detected)"},
         {"--missing", "", "LIST", "comma-separated missing-value tokens"},
         {"--categorical-threshold", "", "N",
          "columns with at most N distinct values are categorical (default 20)"},
         {"--json", "", "", "print JSON instead of text"},
         {"--quiet", "-q", "", "no progress output"}}},
       RunEvaluate},
  };
}

}  // namespace deniable::cli
