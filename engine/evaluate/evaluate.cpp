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
  AttackOptions attack;
  for (const std::string& name : quasi) {
    auto index = find(name, "quasi-identifier");
    if (!index) return index.error();
    if (std::find(attack.knowledge.begin(), attack.knowledge.end(), *index) ==
        attack.knowledge.end()) {
      attack.knowledge.push_back(*index);
    }
  }
  report.quasi_identifiers = quasi;
  attack.secret = *secret;
  attack.attacks = options.attacks;
  attack.seed = options.seed;
  attack.threads = options.threads;
  attack.confidence = options.confidence;
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

  const auto skipped = [&](const char* name, const Error& error) -> Status {
    if (error.code != ErrorCode::kInvalidArgument) return error;
    report.notes.push_back(std::string(name) + " not run: " + error.message);
    return OkStatus();
  };
  progress.Report(0.4 * scale, "Singling-out attack");
  SubProgress p_single(progress, 0.4 * scale, 0.5 * scale);
  auto single = SinglingOutAttack(tables, attack, p_single);
  if (single) {
    report.singling_out = single.value();
  } else if (auto s = skipped("singling out", single.error()); !s) {
    return s.error();
  }
  progress.Report(0.5 * scale, "Linkability attack");
  SubProgress p_link(progress, 0.5 * scale, 0.75 * scale);
  auto link = LinkabilityAttack(tables, attack, p_link);
  if (link) {
    report.linkability = link.value();
  } else if (auto s = skipped("linkability", link.error()); !s) {
    return s.error();
  }
  progress.Report(0.75 * scale, "Inference attack");
  SubProgress p_infer(progress, 0.75 * scale, scale);
  auto infer = InferenceAttack(tables, attack, p_infer);
  if (infer) {
    report.inference = infer.value();
  } else if (auto s = skipped("inference", infer.error()); !s) {
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

}  // namespace deniable
