// SPDX-License-Identifier: Apache-2.0
#include "ui/review/attack_facts.h"

#include <chrono>

#include <QObject>

#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

QString joined(const std::vector<std::string>& names) {
  QStringList list;
  for (const std::string& name : names) list << toQString(name);
  return list.join(QStringLiteral(", "));
}

QString interval(const Interval& i, int decimals) {
  return QStringLiteral("[%1, %2]").arg(QString::number(i.low, 'f', decimals),
                                        QString::number(i.high, 'f', decimals));
}

QString score(double value) { return QString::number(value, 'f', 3); }

}  // namespace

AttackRequest attackRequestOf(const ReviewData& data, const QString& target, unsigned threads) {
  AttackRequest request;
  request.real = data.real;
  request.control = data.control;
  request.synthetic = data.synthetic;
  request.schema = data.schema;
  request.options.target = target.toStdString();
  request.options.threads = threads == 0 ? 1 : threads;
  return request;
}

QString attackRequestProblem(const ReviewData& data) {
  if (!data.real || !data.synthetic) return QObject::tr("No results yet: run a synthesis first.");
  if (!data.control || data.control->num_rows() == 0) {
    return QObject::tr(
        "This run used every row of your file, so there is nothing to compare an attack with: "
        "an attacker who does well on the rows the release was made from might do as well on "
        "anyone. To test the release against attacks, hold out some rows before the run (Privacy "
        "page, \"Hold out rows to test the release against attacks\", 5\u00a0% to 20\u00a0%) and "
        "run again. "
        "The model never sees the rows held out; what an attack learns about the other rows "
        "beyond them is what the release leaks. Holding rows out costs some utility (the model "
        "learns from fewer rows), so it is your choice.");
  }
  if (data.synthetic->num_rows() == 0) return QObject::tr("The release has no rows to attack.");
  return QString();
}

QStringList attackTargetCandidates(const Schema& schema) {
  QStringList names;
  for (const ColumnSchema& column : schema.columns) {
    if (column.is_modelled()) names << toQString(column.name);
  }
  return names;
}

QString defaultAttackTarget(const Schema& schema) {
  for (const ColumnSchema& column : schema.columns) {
    if (column.is_modelled() && column.role == ColumnRole::kTarget) return toQString(column.name);
  }
  return QString();
}

AttackOutcome computeAttacks(const AttackRequest& request, Progress& progress) {
  if (!request.real || !request.control || !request.synthetic) {
    return FailedPrecondition("no control rows: the run held none out");
  }
  const auto start = std::chrono::steady_clock::now();
  auto report = EvaluateRelease(*request.real, *request.synthetic, *request.control,
                                request.schema, request.options, progress);
  if (!report) return report.error();
  auto analysis = std::make_shared<AttackAnalysis>();
  analysis->report = std::move(report.value());
  analysis->seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::shared_ptr<const AttackAnalysis>(std::move(analysis));
}

std::vector<AttackRow> attackRows(const EvaluateReport& report) {
  std::vector<AttackRow> rows;
  const auto add = [&rows](const QString& name, const QString& explanation,
                           const AttackRisk& risk) {
    rows.push_back(AttackRow{name, explanation, risk, risk.train.trials});
  };
  if (report.singling_out) {
    add(QObject::tr("Singling out"),
        QObject::tr("Takes a combination of values only one synthetic row has and bets that "
                    "only one real person has it."),
        report.singling_out->risk);
  }
  if (report.linkability) {
    add(QObject::tr("Linkability"),
        QObject::tr("Links two partial records of one person (the quasi-identifiers in two "
                    "halves) through the synthetic rows nearest to each."),
        report.linkability->risk);
  }
  if (report.inference) {
    add(QObject::tr("Attribute inference"),
        QObject::tr("Guesses a person's %1 from the synthetic rows nearest on what the "
                    "attacker knows.")
            .arg(toQString(report.sensitive)),
        report.inference->risk);
  }
  return rows;
}

QString riskWithInterval(const AttackRisk& risk) {
  return QStringLiteral("%1 %2").arg(score(risk.risk), interval(risk.risk_interval, 3));
}

QString rateWithInterval(const RateEstimate& rate) {
  const Interval percent{100 * rate.interval.low, 100 * rate.interval.high};
  return QStringLiteral("%1 %2").arg(formatPercent(rate.rate, 1), interval(percent, 1));
}

VerdictFinding attackFinding(const EvaluateReport& report, double threshold) {
  VerdictInputs inputs;
  inputs.attacks = VerdictAttacksOf(report, threshold);
  for (VerdictFinding& finding : ComputeVerdict(inputs).findings) {
    if (finding.topic == VerdictTopic::kAttacks) return finding;
  }
  return VerdictFinding{};
}

QString attackScope(const EvaluateReport& report) {
  QString text =
      QObject::tr("The attacker knows %1 and wants to learn %2. Rows: %3 the release was made "
                  "from, %4 held out (control), %5 synthetic.")
          .arg(joined(report.quasi_identifiers), toQString(report.sensitive),
               formatCount(report.train_rows), formatCount(report.control_rows),
               formatCount(report.synthetic_rows));
  if (!report.notes.empty()) {
    QStringList notes;
    for (const std::string& note : report.notes) {
      // The engine's notes name the CLI's options; in the app the roles come from the Columns
      // step.
      QString line = toQString(note);
      line.replace(QStringLiteral("(--sensitive to choose)"),
                   QObject::tr("(the role \"sensitive\" in the Columns step chooses it)"));
      line.replace(QStringLiteral("(--quasi to choose)"),
                   QObject::tr("(the role \"quasi-identifier\" in the Columns step chooses them)"));
      notes << line;
    }
    text += QLatin1Char(' ') + QObject::tr("Notes: %1.").arg(notes.join(QStringLiteral("; ")));
  }
  return text;
}

QString closenessSummary(const EvaluateReport& report) {
  const CopyCounts& c = report.copies;
  const DcrReport& d = report.dcr;
  return QObject::tr(
             "%1 of the %2 synthetic rows are exact copies of a row the release was made from "
             "(%3 of a row unique there); against the held-out rows, which the model never saw: "
             "%4 (%5 unique). Distance to the closest record: median %6 to the training rows, "
             "%7 to as many held-out rows; %8 of the synthetic rows are closer to a training row "
             "than to a held-out one (50 % = no lean towards the rows it was made from).")
      .arg(formatCount(c.copies_of_train), formatCount(c.synthetic_rows),
           formatCount(c.copies_of_unique_train), formatCount(c.copies_of_control),
           formatCount(c.copies_of_unique_control), score(d.to_train.median),
           score(d.to_control.median), rateWithInterval(d.closer_to_train));
}

QString mlSummary(const EvaluateReport& report) {
  if (!report.utility) {
    return QObject::tr(
        "No machine-learning target chosen: pick a column under \"ML target\" above (or give a "
        "column the role \"target\" in the Columns step) to compare a model trained on the "
        "synthetic rows with one trained on the real rows.");
  }
  const MlUtilityReport& u = *report.utility;
  QString text;
  if (u.classification) {
    text = QObject::tr(
               "Predicting %1 (%2 classes) for the %3 held-out rows: a model trained on the "
               "synthetic rows is right %4 of the time (AUC %5), one trained on the real rows "
               "%6 (AUC %7).")
               .arg(toQString(u.target), QString::number(u.classes), formatCount(u.test_rows),
                    formatPercent(u.synthetic_model.accuracy, 1), score(u.synthetic_model.auc),
                    formatPercent(u.real_model.accuracy, 1), score(u.real_model.auc));
    if (u.agreement) {
      text += QLatin1Char(' ') + QObject::tr("The two models agree on %1 of the rows.")
                                     .arg(formatPercent(*u.agreement, 1));
    }
  } else {
    text = QObject::tr(
               "Predicting %1 for the %2 held-out rows: a model trained on the synthetic rows "
               "explains R² = %3 of its variance, one trained on the real rows R² = %4.")
               .arg(toQString(u.target), formatCount(u.test_rows), score(u.synthetic_model.r2),
                    score(u.real_model.r2));
  }
  text += QLatin1Char(' ') +
          QObject::tr("A classifier trained to tell real rows from synthetic ones is right %1 of "
                      "the time (AUC %2; 50 % = they cannot be told apart).")
              .arg(rateWithInterval(u.distinguish_accuracy), score(u.distinguish_auc));
  return text;
}

}  // namespace deniable::ui
