// SPDX-License-Identifier: Apache-2.0
#include "engine/evaluate/evaluate.h"

#include <algorithm>

#include "engine/evaluate/control_split.h"

namespace deniable {
namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

Result<EvaluateReport> EvaluateRelease(const RawTable& real, const RawTable& synthetic,
                                       const RawTable& control, const Schema& schema,
                                       const EvaluateOptions& options, Progress& progress) {
  const RawTable* inputs[] = {&real, &synthetic, &control};
  for (const RawTable* table : inputs) {
    if (table->num_rows() == 0) return InvalidArgument("'" + table->source + "' has no rows");
  }
  if (options.attacks == 0) return InvalidArgument("attacks must be at least 1");
  progress.Report(0, "Encoding the tables");
  // The original input (training + control rows) is accepted: the control rows are removed.
  auto [training, had_control] = RemoveControlRows(real, control);
  auto encoded = EncodeMixedTables(training, control, synthetic, schema);
  if (!encoded) return encoded.error();
  const MixedTables& tables = encoded.value();
  EvaluateReport report;
  if (had_control) {
    report.notes.push_back("'" + real.source + "' holds every control row: the " +
                           std::to_string(control.num_rows()) +
                           " control rows were removed from it to get the training rows");
  }
  report.train_rows = training.num_rows();
  report.control_rows = control.num_rows();
  report.synthetic_rows = synthetic.num_rows();
  for (const MixedColumn& column : tables.columns) report.columns.push_back(column.name);

  // Roles.
  const auto find = [&](const std::string& name, const char* what) -> Result<std::size_t> {
    const int index = tables.ColumnIndex(name);
    if (index < 0) {
      return InvalidArgument(std::string(what) + ": '" + name +
                             "' is not a compared column (known: " + JoinNames(report.columns) +
                             ")");
    }
    return static_cast<std::size_t>(index);
  };
  if (!options.target.empty()) {
    if (auto t = find(options.target, "target"); !t) return t.error();
  }
  std::string sensitive = options.sensitive;
  if (sensitive.empty()) {
    for (const ColumnSchema& column : schema.columns) {
      if (column.role == ColumnRole::kSensitive && tables.ColumnIndex(column.name) >= 0) {
        sensitive = column.name;
        break;
      }
    }
    if (!sensitive.empty()) {
      report.notes.push_back("sensitive attribute '" + sensitive + "' from the schema's role");
    } else if (!options.target.empty()) {
      sensitive = options.target;
      report.notes.push_back("no sensitive attribute given: the target '" + sensitive +
                             "' is taken (--sensitive to choose)");
    } else {
      sensitive = report.columns.back();
      // The last column in the file's order, not in the compared (categorical-first) order.
      for (auto it = schema.columns.rbegin(); it != schema.columns.rend(); ++it) {
        if (tables.ColumnIndex(it->name) >= 0) {
          sensitive = it->name;
          break;
        }
      }
      report.notes.push_back("no sensitive attribute given: the last column '" + sensitive +
                             "' is taken (--sensitive to choose)");
    }
  }
  auto secret = find(sensitive, "sensitive");
  if (!secret) return secret.error();
  report.sensitive = sensitive;
  std::vector<std::string> quasi = options.quasi_identifiers;
  if (quasi.empty()) {
    for (const ColumnSchema& column : schema.columns) {
      if (column.role == ColumnRole::kQuasiIdentifier && tables.ColumnIndex(column.name) >= 0) {
        quasi.push_back(column.name);
      }
    }
    if (!quasi.empty()) {
      report.notes.push_back("quasi-identifiers from the schema's roles: " + JoinNames(quasi));
    } else {
      for (const ColumnSchema& column : schema.columns) {  // file order
        if (tables.ColumnIndex(column.name) >= 0 && column.name != sensitive) {
          quasi.push_back(column.name);
        }
      }
      report.notes.push_back(
          "no quasi-identifiers given: the attacker is assumed to know every column but the "
          "sensitive one (--quasi to choose)");
    }
  }
  AttackOptions attack_options;
  for (const std::string& name : quasi) {
    auto index = find(name, "quasi-identifier");
    if (!index) return index.error();
    if (std::find(attack_options.knowledge.begin(), attack_options.knowledge.end(), *index) ==
        attack_options.knowledge.end()) {
      attack_options.knowledge.push_back(*index);
    }
  }
  report.quasi_identifiers = quasi;
  attack_options.secret = *secret;
  attack_options.attacks = options.attacks;
  attack_options.seed = options.seed;
  attack_options.threads = options.threads;
  attack_options.confidence = options.confidence;
  const bool ml = !options.target.empty();
  // Progress: closeness 0–0.3, attacks 0.3–0.7 (or 0–1 without ML), ML 0.7–1.
  const double scale = ml ? 0.7 : 1.0;
  report.copies = CountCopies(tables);
  progress.Report(0.02 * scale, "Distance to closest records");
  SubProgress p_dcr(progress, 0.02 * scale, 0.4 * scale);
  auto dcr = DistanceToClosestRecord(
      tables, {options.dcr_rows, options.seed, options.threads, options.confidence}, p_dcr);
  if (!dcr) return dcr.error();
  report.dcr = dcr.value();

  // Runs one attack over [begin, end) of the scaled progress; an attack that cannot run on
  // these roles (kInvalidArgument) is skipped and said in the notes.
  const auto run = [&](const char* name, const char* stage, double begin, double end, auto attack,
                       auto& slot) -> Status {
    progress.Report(begin * scale, stage);
    SubProgress part(progress, begin * scale, end * scale);
    auto result = attack(tables, attack_options, part);
    if (result) {
      slot = std::move(result.value());
    } else if (result.error().code == ErrorCode::kInvalidArgument) {
      report.notes.push_back(std::string(name) + " not run: " + result.error().message);
    } else {
      return result.error();
    }
    return OkStatus();
  };
  if (auto s = run("singling out", "Singling-out attack", 0.4, 0.5, SinglingOutAttack,
                   report.singling_out);
      !s) {
    return s.error();
  }
  if (auto s = run("linkability", "Linkability attack", 0.5, 0.75, LinkabilityAttack,
                   report.linkability);
      !s) {
    return s.error();
  }
  if (auto s = run("inference", "Inference attack", 0.75, 1.0, InferenceAttack, report.inference);
      !s) {
    return s.error();
  }
  if (ml) {
    MlUtilityOptions ml_options;
    ml_options.target = options.target;
    ml_options.seed = options.seed;
    ml_options.threads = options.ml_threads;
    ml_options.confidence = options.confidence;
    SubProgress p_ml(progress, 0.7, 1.0);
    auto utility = EvaluateMlUtility(tables, ml_options, p_ml);
    if (!utility) return utility.error();
    report.utility = std::move(utility.value());
  }
  progress.Report(1, "Evaluation done");
  return report;
}

VerdictAttacks VerdictAttacksOf(const EvaluateReport& report, double threshold) {
  VerdictAttacks out;
  out.threshold = threshold;
  out.synthetic_rows = report.synthetic_rows;
  out.copies_of_unique_train = report.copies.copies_of_unique_train;
  const auto add = [&out](const char* name, const AttackRisk& risk) {
    out.attacks.push_back(VerdictAttack{name, risk.risk, risk.risk_interval.low,
                                        risk.risk_interval.high, risk.attack_beats_naive});
  };
  if (report.singling_out) add("singling out", report.singling_out->risk);
  if (report.linkability) add("linkability", report.linkability->risk);
  if (report.inference) add("attribute inference", report.inference->risk);
  return out;
}

}  // namespace deniable
