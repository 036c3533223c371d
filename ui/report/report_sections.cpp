// SPDX-License-Identifier: Apache-2.0
// The shareable sections of the release report: nothing here reads ReviewData::real,
// ReviewData::metrics, ReviewData::schema's stats or the input's path and hash.
#include "ui/report/report_sections.h"

#include <algorithm>
#include <optional>

#include <QCoreApplication>
#include <QFileInfo>

#include "engine/pipeline/settings_table.h"
#include "ui/report/report_html.h"
#include "ui/review/attack_facts.h"
#include "ui/review/ledger_model.h"
#include "ui/review/review_format.h"
#include "ui/review/verdict_facts.h"

namespace deniable::ui::report_sections {
namespace {

using report_html::escape;

QString modeSentence(const std::string& mode) {
  if (mode == "random") {
    return QObject::tr("random: every value drawn uniformly from its column's domain; no "
                       "relationship to the data beyond the domains.");
  }
  if (mode == "independent") {
    return QObject::tr("independent: each column drawn from its own noisy histogram; "
                       "relationships between columns are not kept.");
  }
  if (mode == "correlated") {
    return QObject::tr("correlated: a Bayesian network learned with differential privacy "
                       "(PrivBayes) keeps the main relationships between columns.");
  }
  if (mode == "marginals") {
    return QObject::tr("marginals: noisy low-dimensional marginals chosen by MST or AIM (under "
                       "zero-concentrated DP), from which Private-PGM estimates a graphical "
                       "model that the synthetic records are sampled from.");
  }
  if (mode == "deniable") {
    return QObject::tr("deniable: each synthetic record is a real seed record with some "
                       "attributes re-sampled from a private model, released only if it passes "
                       "the plausible-deniability test.");
  }
  return toQString(mode);
}

// The settings table's title (engine/pipeline/settings_table.h), translated when a
// translation has it; a key the table does not hold (a description of another version) as is.
QString parameterLabel(const std::string& key) {
  if (const SettingSpec* spec = FindSetting(key); spec != nullptr && *spec->title != '\0') {
    return QCoreApplication::translate("settings", spec->title);
  }
  return toQString(key);
}

QString jsonValueText(const nlohmann::json& value) {
  if (value.is_string()) return toQString(value.get<std::string>());
  if (value.is_number_float()) return QString::number(value.get<double>(), 'g', 6);
  return toQString(value.dump());
}

}  // namespace

QString guaranteeSection(const PrivacyFacts& privacy) {
  QString body = QStringLiteral("<div class=\"headline\"><div class=\"numbers\">%1</div>"
                                "<div class=\"statement\">%2</div>"
                                "<div class=\"scope\">%3</div></div>")
                     .arg(escape(QObject::tr("Whole release: %1").arg(formatCost(privacy.release))),
                          escape(privacy.statement),
                          escape(QObject::tr("Covers: %1.").arg(privacy.guarantees.front().note)));
  QList<QStringList> rows;
  for (const GuaranteeLine& line : privacy.guarantees) rows << QStringList{line.label, line.value, line.note};
  body += report_html::table({QObject::tr("Guarantee"), QObject::tr("Value"), QObject::tr("What it covers")},
                             rows);
  body += QStringLiteral("<p class=\"note\">%1</p>")
              .arg(escape(QObject::tr("Neighbouring datasets differ by adding or removing one "
                                      "person's record. Smaller ε and δ mean stronger privacy. "
                                      "Every figure above comes from the engine's privacy "
                                      "accountant; per-record figures never stand in for the "
                                      "whole release.")));
  return report_html::section(QStringLiteral("guarantees"), QObject::tr("Privacy guarantee"), body);
}

QString releaseSection(const ReviewData& data, const PrivacyFacts& privacy) {
  QList<QPair<QString, QString>> rows;
  rows << qMakePair(QObject::tr("Mode"), modeSentence(data.description.mode));
  rows << qMakePair(QObject::tr("Synthetic records released"), formatCount(data.summary.rows));
  rows << qMakePair(QObject::tr("Modelled attributes"), formatCount(data.description.domains.size()));
  if (privacy.deniable && privacy.candidates > 0) {
    rows << qMakePair(QObject::tr("Candidate attempts / records released"),
                      QObject::tr("%1 / %2 (pass rate %3)")
                          .arg(formatCount(privacy.candidates), formatCount(privacy.passed),
                               formatPercent(static_cast<double>(privacy.passed) /
                                             static_cast<double>(privacy.candidates))));
  }
  rows << qMakePair(QObject::tr("Randomness"),
                    privacy.reproducible_not_private
                        ? QObject::tr("fixed seed — reproducible, NOT a private release")
                        : QObject::tr("operating system's secure generator"));
  return report_html::section(QStringLiteral("release"), QObject::tr("What was released"),
                              report_html::keyValueTable(rows));
}

QString parameterSection(const ReviewData& data) {
  nlohmann::json parameters = data.description.parameters;
  if (!parameters.is_object() || parameters.empty()) parameters = data.settings.ToJson();
  // The most important first; anything else after them, in the file's order.
  static const char* const kOrder[] = {"mode", "epsilon", "delta", "k", "gamma", "omega_min",
                                       "omega_max", "epsilon0", "degree", "maxcost", "bins",
                                       "domain_fraction", "structure_fraction"};
  std::vector<std::string> keys;
  for (const char* key : kOrder) {
    if (parameters.contains(key)) keys.push_back(key);
  }
  for (auto it = parameters.begin(); it != parameters.end(); ++it) {
    if (std::find(keys.begin(), keys.end(), it.key()) == keys.end()) keys.push_back(it.key());
  }
  QList<QPair<QString, QString>> rows;
  for (const std::string& key : keys) {
    const nlohmann::json& value = parameters[key];
    QString text = jsonValueText(value);
    if (value.is_number() && key.find("delta") != std::string::npos) text = formatDelta(value.get<double>());
    if (value.is_number() && key.rfind("epsilon", 0) == 0) text = formatEpsilon(value.get<double>());
    // The engine writes "auto" when the rule chose the domains' share (model/domain_budget.h).
    if (key == "domain_fraction" && value.is_string() && value.get<std::string>() == "auto") {
      text = QObject::tr("Automatic: set by a rule from a private row count and the column "
                         "types (the ledger shows what the domains spent)");
    }
    if (key == "bins_chosen") continue;  // shown with "bins"
    // The fitted model itself (AIM's measurements and cliques, the deniable mode's tables): the
    // Model section describes it; its numbers are in the description file.
    if (key == "model") continue;
    if (key == "bins" && value.is_string() && value.get<std::string>() == "auto") {
      const nlohmann::json chosen = parameters.value("bins_chosen", nlohmann::json());
      text = chosen.is_number_integer()
                 ? QObject::tr("Automatic: at most %1 per number column (a rule from a private "
                               "row count, ε and the column count)")
                       .arg(chosen.get<int>())
                 : QObject::tr("Automatic (a rule from a private row count, ε and the column "
                               "count)");
    }
    rows << qMakePair(parameterLabel(key), text);
  }
  return report_html::section(QStringLiteral("parameters"), QObject::tr("Parameters"),
                              report_html::keyValueTable(rows));
}

QString ledgerSection(const ReviewData& data, const PrivacyFacts& privacy) {
  const std::vector<std::string> names = AttributeNames(data.description);
  if (!privacy.ledger_ok) {
    return report_html::section(
        QStringLiteral("ledger"), QObject::tr("Privacy ledger"),
        QStringLiteral("<p>%1</p>").arg(escape(QObject::tr("The ledger could not be read: %1")
                                                   .arg(privacy.ledger_error))));
  }
  QString body = QStringLiteral("<p>%1</p>").arg(escape(QObject::tr(
      "Every differentially private computation on the real data, in the order it ran. "
      "Entries on the same rows compose sequentially (ε and δ add up); disjoint row sets "
      "compose in parallel (the largest counts).")));
  body += QStringLiteral("<table class=\"ledger\"><thead><tr>");
  for (int c = 0; c < LedgerModel::kColumnCount; ++c) {
    const bool numeric = c == LedgerModel::kEpsilon || c == LedgerModel::kDelta ||
                         c == LedgerModel::kCount;
    body += QStringLiteral("<th%1>%2</th>")
                .arg(numeric ? QStringLiteral(" class=\"num\"") : QString(),
                     escape(LedgerModel::columnTitle(c)));
  }
  body += QStringLiteral("</tr></thead><tbody>");
  for (const LedgerEntry& e : privacy.entries) {
    body += QStringLiteral("<tr><td>%1</td><td>%2</td><td class=\"num\">%3</td>"
                           "<td class=\"num\">%4</td><td class=\"num\">%5</td><td>%6</td>"
                           "<td>%7</td></tr>")
                .arg(escape(readableLedgerLabel(e.label, names)), escape(toQString(e.mechanism)),
                     escape(ledgerCostColumns(e).first), escape(ledgerCostColumns(e).second),
                     escape(formatCount(e.count)), escape(toQString(e.partition)),
                     escape(toQString(e.reference)));
  }
  body += QStringLiteral("<tr class=\"total\"><td colspan=\"2\">%1</td><td class=\"num\">%2</td>"
                         "<td class=\"num\">%3</td><td colspan=\"3\">%4</td></tr>")
              .arg(escape(QObject::tr("Total of the ledger")),
                   escape(formatEpsilon(privacy.ledger_total.epsilon)),
                   escape(formatDelta(privacy.ledger_total.delta)),
                   escape(QObject::tr("budget %1").arg(formatCost(privacy.budget))));
  body += QStringLiteral("</tbody></table>");
  QList<QStringList> partitions;
  for (const auto& p : privacy.partitions) {
    partitions << QStringList{toQString(p.name), toQString(p.parent), toQString(p.description)};
  }
  body += QStringLiteral("<h3>%1</h3>").arg(escape(QObject::tr("Row sets")));
  body += report_html::table({QObject::tr("Rows"), QObject::tr("Part of"), QObject::tr("Description")},
                             partitions);
  return report_html::section(QStringLiteral("ledger"), QObject::tr("Privacy ledger"), body);
}

QString domainSection(const ReviewData& data) {
  QList<QStringList> rows;
  for (const DomainProvenanceRow& row : DomainProvenance(data.description)) {
    rows << QStringList{row.column, row.type, row.domain, row.source, row.provenance};
  }
  QString body = QStringLiteral("<p>%1</p>").arg(escape(QObject::tr(
      "Where each column's categories or bounds came from: declared public by the data owner, "
      "computed by a differentially private mechanism (listed in the ledger), or imported from "
      "a description file. None was read from the data without privacy protection.")));
  body += report_html::table({QObject::tr("Column"), QObject::tr("Type"), QObject::tr("Domain"),
                              QObject::tr("Source"), QObject::tr("Provenance")},
                             rows);
  return report_html::section(QStringLiteral("domains"), QObject::tr("Domains and their provenance"),
                              body);
}

QString modelSection(const ReviewData& data, const NetworkFacts& network, const QImage& picture) {
  std::size_t links = 0;
  for (const BayesNode& node : data.description.network.nodes) links += node.parents.size();
  QString body;
  if (network.marginals) {
    std::size_t joint = 0;
    for (const MeasuredMarginal& m : network.measured) joint += m.attributes.size() > 1 ? 1 : 0;
    body = QStringLiteral("<p>%1</p>").arg(escape(
        QObject::tr("The generative model: a graphical model (Private-PGM) fitted to %1 noisy "
                    "marginals that %2 chose and measured with differential privacy, %3 of "
                    "them over two or more of the %4 attributes; the rows are sampled from it. "
                    "There is no Bayesian network. The measured marginals and the fitted model "
                    "are in the description file.")
            .arg(network.measured.size())
            .arg(toQString(network.mechanism == "mst" ? "MST" : "AIM"))
            .arg(joint)
            .arg(data.description.network.nodes.size())));
    if (!network.exact_pairs.empty()) {
      const std::vector<std::string> names = AttributeNames(data.description);
      QStringList pairs;
      for (const auto& [parent, child] : network.exact_pairs) {
        pairs << toQString(names[static_cast<std::size_t>(parent)] + " → " +
                           names[static_cast<std::size_t>(child)]);
      }
      body += QStringLiteral("<p>%1</p>").arg(escape(
          QObject::tr("Made exact in every synthetic row (a near-function in the fitted model, "
                      "such as a code and its label): %1.")
              .arg(pairs.join(QStringLiteral(", ")))));
    }
    body += report_html::figure(picture, QObject::tr("The measured marginals"),
                                escape(QObject::tr("A line joins columns measured together (in "
                                                   "a noisy 2- or 3-way marginal); colours give "
                                                   "the attribute's type.")));
  } else {
    body = QStringLiteral("<p>%1</p>").arg(escape(
        QObject::tr("The generative model: a Bayesian network with %1 attributes and %2 parent "
                    "links, learned with differential privacy. Its conditional distributions "
                    "are in the description file.")
            .arg(data.description.network.nodes.size())
            .arg(links)));
    body += report_html::figure(picture, QObject::tr("The learned Bayesian network"),
                                escape(QObject::tr("Arrows point from parent to child; colours "
                                                   "give the attribute's type.")));
  }
  if (network.deniable) {
    body += QStringLiteral("<p><b>%1</b> %2</p>")
                .arg(escape(QObject::tr("σ order:")),
                     escape(toQString(network.SigmaText(AttributeNames(data.description)))));
    if (network.omega) {
      body += QStringLiteral("<p>%1</p>").arg(escape(
          QObject::tr("Each candidate re-samples the last ω attributes of σ, ω from %1 to %2, "
                      "and copies the others from its seed record.")
              .arg(network.omega->min)
              .arg(network.omega->max)));
    }
  }
  return report_html::section(QStringLiteral("model"), QObject::tr("Model"), body);
}

QString outputSection(const ReportContext& context) {
  QList<QStringList> rows;
  for (const ReportOutputFile& output : context.outputs) {
    rows << QStringList{escape(output.label), escape(QFileInfo(output.path).fileName()),
                        QStringLiteral("<span class=\"hash\">%1</span>").arg(escape(output.sha256))};
  }
  QString body = report_html::table({QObject::tr("Output"), QObject::tr("File"), QObject::tr("SHA-256")},
                                    rows, QString(), true);
  body += QStringLiteral("<p class=\"note\">%1</p>")
              .arg(escape(QObject::tr("Check a copy with: sha256sum FILE (Linux), "
                                      "shasum -a 256 FILE (macOS), "
                                      "Get-FileHash FILE (Windows PowerShell).")));
  return report_html::section(QStringLiteral("outputs"), QObject::tr("Output files"), body);
}

QString verdictSection(const ReviewData& data, bool owner, const RiskAnalysis* risk,
                       const AttackAnalysis* attacks, double attackThreshold) {
  std::optional<UtilityBaselines> baselines;
  if (owner) {
    NullProgress progress;
    if (auto computed = computeBaselines(data, progress)) baselines = *computed;
  }
  VerdictInputs inputs = verdictInputsOf(data, baselines ? &*baselines : nullptr,
                                         owner ? risk : nullptr);
  if (owner && attacks != nullptr) {
    inputs.attacks = VerdictAttacksOf(attacks->report, attackThreshold);
  }
  if (!owner) {
    inputs.rows = 0;  // shareable: no real-data statistic, so no δ-versus-1/n judgement
    inputs.utility.reset();
    inputs.risk.reset();
  }
  const Verdict verdict = ComputeVerdict(inputs);
  QString body = QStringLiteral("<p><b style=\"color:%1\">%2</b></p>")
                     .arg(verdictColor(verdict.overall).name(),
                          escape(owner ? overallAnswer(verdict.overall)
                                       : QObject::tr("Formal guarantee: %1")
                                             .arg(overallAnswer(verdict.overall))));
  QList<QStringList> rows;
  for (const VerdictFinding& f : verdict.findings) {
    rows << QStringList{toQString(f.headline), toQString(f.reason), toQString(f.change)};
  }
  body += report_html::table(
      {QObject::tr("Finding"), QObject::tr("Why"), QObject::tr("What to change")}, rows);
  return report_html::section(owner ? QStringLiteral("owner-verdict") : QStringLiteral("verdict"),
                              owner ? QObject::tr("Verdict (owner only: utility and guarantee)")
                                    : QObject::tr("Verdict on the guarantee"),
                              body);
}

QString scopeSection() {
  const QString body = QStringLiteral("<p>%1</p>").arg(escape(QObject::tr(
      "This report contains only what the release itself reveals: the parameters, the privacy "
      "ledger and guarantees, the privately computed (or publicly declared) domains and model, "
      "and fingerprints of the output files. It deliberately leaves out every statistic of the "
      "real data — real records, real minima, maxima and category lists, real-versus-synthetic "
      "charts and utility scores — and the input file's name, size and SHA-256 (a fingerprint of "
      "the input would let someone who knows all records but one test guesses of the last). The "
      "data owner's copy of this report adds them in a separate, marked part.")));
  return report_html::section(QStringLiteral("scope"), QObject::tr("What this report leaves out"),
                              body);
}

QString warningSection(const PrivacyFacts& privacy, bool includeOwnerOnly) {
  QString items;
  for (const ReviewWarning& warning : privacy.warnings) {
    if (warning.owner_only && !includeOwnerOnly) continue;
    items += QStringLiteral("<li>%1</li>").arg(escape(warning.text));
  }
  if (items.isEmpty()) return {};
  return report_html::section(QStringLiteral("warnings"), QObject::tr("Warnings"),
                              QStringLiteral("<ul class=\"warnings\">%1</ul>").arg(items));
}

}  // namespace deniable::ui::report_sections
