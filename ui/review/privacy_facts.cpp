// SPDX-License-Identifier: Apache-2.0
#include "ui/review/privacy_facts.h"

#include <cmath>

#include <QObject>
#include <QRegularExpression>

#include "engine/pipeline/synthesis_job.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

// Above this whole-release ε the guarantee is weak enough to say so.
constexpr double kLargeEpsilon = 5.0;

bool readCost(const nlohmann::json& object, PrivacyCost& cost) {
  if (!object.is_object() || !object.contains("epsilon")) return false;
  cost.epsilon = jsonNumber(object["epsilon"], NAN);
  cost.delta = object.contains("delta") ? jsonNumber(object["delta"], 0.0) : 0.0;
  return !std::isnan(cost.epsilon);
}

QString jsonText(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return {};
  return toQString(object[key].get<std::string>());
}

void addDeniableLines(const nlohmann::json& g, PrivacyFacts& facts) {
  PrivacyCost cost;
  if (g.contains("model") && readCost(g["model"].value("combined", nlohmann::json()), cost)) {
    facts.guarantees.push_back({QObject::tr("Model (structure on D_T, parameters on D_P)"),
                                formatCost(cost), QObject::tr("parallel composition, §3.5")});
  }
  if (readCost(g.value("release_amplified_by_split", nlohmann::json()), cost)) {
    facts.guarantees.push_back({QObject::tr("Whole release, with amplification by the random split"),
                                formatCost(cost), QObject::tr("Theorem 4 over the D_T/D_P/D_S split")});
  }
  if (g.contains("k") && g.contains("gamma")) {
    facts.guarantees.push_back(
        {QObject::tr("Each released record: plausible deniability"),
         QObject::tr("k = %1, γ = %2").arg(jsonNumber(g["k"])).arg(jsonNumber(g["gamma"])),
         (g.contains("epsilon0")  // the randomised test
              ? QObject::tr("it passed a test of its count of real records that could have "
                            "produced it (probabilities within a factor γ) against a noisy "
                            "threshold k + Lap(1/ε0): most records have at least k, a record "
                            "may have fewer (%1)")
              : QObject::tr("at least k real records could have produced it, with probabilities "
                            "within a factor γ (%1)"))
             .arg(jsonText(g, "test"))});
  }
  if (g.contains("per_record")) {
    const nlohmann::json& record = g["per_record"];
    if (readCost(record, cost)) {
      facts.guarantees.push_back(
          {QObject::tr("Each released record on its own: differential privacy"),
           formatCost(cost),
           QObject::tr("Theorem 1 with t = %1 — per record, NOT the whole release")
               .arg(record.value("t", 0))});
    } else if (record.is_string()) {
      facts.guarantees.push_back({QObject::tr("Each released record on its own"),
                                  toQString(record.get<std::string>()), QString()});
    }
  }
  if (readCost(g.value("synthesis", nlohmann::json()), cost) && g.contains("attempts_cap")) {
    facts.guarantees.push_back(
        {QObject::tr("Synthesis: %1 candidate attempts").arg(formatCount(g.value("attempts_cap", std::uint64_t{0}))),
         formatCost(cost),
         QObject::tr("%1 composition; %2")
             .arg(jsonText(g, "synthesis_composition"),
                  g.value("synthesis_charged_to_budget", false)
                      ? QObject::tr("charged to the budget")
                      : QObject::tr("NOT charged to the budget")) });
  }
}

}  // namespace

QString readableLedgerLabel(const std::string& label, const std::vector<std::string>& names) {
  static const QRegularExpression attribute(QStringLiteral("\\battribute (\\d+)\\b"));
  QString text = toQString(label);
  QString out;
  qsizetype last = 0;
  for (auto it = attribute.globalMatch(text); it.hasNext();) {
    const QRegularExpressionMatch match = it.next();
    const auto index = static_cast<std::size_t>(match.captured(1).toULongLong());
    out += text.mid(last, match.capturedStart() - last);
    out += index < names.size() ? toQString(names[index]) : match.captured(0);
    last = match.capturedEnd();
  }
  return out + text.mid(last);
}

QString formatCost(PrivacyCost cost) {
  return QStringLiteral("ε = %1, δ = %2").arg(formatEpsilon(cost.epsilon), formatDelta(cost.delta));
}

QString formatEntryCost(const LedgerEntry& entry) {
  if (entry.rho_each > 0 && entry.delta_each > 0) {  // approximate zCDP (the set union)
    return QStringLiteral("ρ = %1 (zCDP) + coupling δ = %2")
        .arg(QString::number(entry.rho_each * static_cast<double>(entry.count), 'g', 4),
             formatDelta(entry.delta_each * static_cast<double>(entry.count)));
  }
  if (entry.rho_each > 0) {
    return QStringLiteral("ρ = %1 (zCDP)")
        .arg(QString::number(entry.rho_each * static_cast<double>(entry.count), 'g', 4));
  }
  return formatCost(entry.cost);
}

std::pair<QString, QString> ledgerCostColumns(const LedgerEntry& entry) {
  if (entry.rho_each > 0) {
    return {QStringLiteral("ρ = %1")
                .arg(QString::number(entry.rho_each * static_cast<double>(entry.count), 'g', 4)),
            entry.delta_each > 0
                ? QObject::tr("zCDP + %1").arg(formatDelta(entry.delta_each *
                                                           static_cast<double>(entry.count)))
                : QObject::tr("zCDP")};
  }
  return {formatEpsilon(entry.cost.epsilon), formatDelta(entry.cost.delta)};
}

PrivacyFacts ExtractPrivacyFacts(const ReviewData& data) {
  PrivacyFacts facts;
  const Description& description = data.description;
  auto ledger = PrivacyAccountant::FromJson(description.privacy);
  if (ledger) {
    facts.ledger_ok = true;
    facts.entries = ledger->entries();
    facts.partitions = ledger->partitions();
    facts.budget = ledger->budget();
    facts.ledger_total = ledger->Total();
  } else {
    facts.ledger_error = toQString(ledger.error().message);
  }

  const nlohmann::json& deniable = data.summary.guarantee;
  facts.deniable = description.mode == "deniable" || data.settings.mode == SynthesisMode::kDeniable;
  QString scope;
  PrivacyCost release;
  if (facts.deniable && deniable.is_object() && readCost(deniable.value("release", nlohmann::json()), release)) {
    facts.release = release;
    scope = QObject::tr("the description file and every released record (all rows, parallel "
                        "over D_T, D_P, D_S)");
  } else if (readCost(description.guarantee, release)) {
    facts.release = release;
    scope = jsonText(description.guarantee, "scope");
  } else {
    facts.release = facts.ledger_total;
    scope = QObject::tr("the ledger's total");
  }
  facts.statement = jsonText(description.guarantee, "statement");
  if (facts.deniable || facts.statement.isEmpty()) {
    facts.statement = toQString(PlainGuarantee(facts.release.epsilon, facts.release.delta));
  }
  facts.guarantees.push_back({QObject::tr("Whole release"), formatCost(facts.release), scope, true});
  if (facts.ledger_ok) {
    facts.guarantees.push_back({QObject::tr("Budget set for the run"), formatCost(facts.budget),
                                QObject::tr("the accountant refuses any spend beyond it")});
  }
  if (facts.deniable && deniable.is_object()) addDeniableLines(deniable, facts);

  facts.candidates = data.summary.candidates;
  facts.passed = data.summary.passed;
  facts.reproducible_not_private = description.reproducible_not_private;

  auto warn = [&facts](QString text, bool ownerOnly = false) {
    facts.warnings.push_back({std::move(text), ownerOnly});
  };
  if (facts.reproducible_not_private) {
    warn(QObject::tr("Made with a fixed seed: reproducible, NOT a private release. Anyone who "
                     "knows the seed can regenerate the noise and remove it."));
  }
  for (const std::string& text : description.warnings) warn(toQString(text));
  if (facts.release.epsilon > kLargeEpsilon) {
    warn(QObject::tr("The whole-release ε = %1 is large: the guarantee is weak (outputs may be "
                     "up to e^ε ≈ %2 times more likely with one person's record than without).")
             .arg(formatEpsilon(facts.release.epsilon))
             .arg(std::exp(facts.release.epsilon), 0, 'g', 3));
  }
  if (facts.deniable && deniable.is_object() &&
      deniable.contains("synthesis_charged_to_budget") &&
      !deniable.value("synthesis_charged_to_budget", true)) {
    warn(QObject::tr("The synthesis was not charged to the budget: only the per-record guarantee "
                     "covers the released records."));
  }
  QStringList publicColumns;
  for (const ColumnDomain& domain : description.domains) {
    if (domain.categories_source == DomainSource::kPublic) publicColumns << toQString(domain.AttributeName());
  }
  if (!publicColumns.isEmpty()) {
    warn(QObject::tr("Domains declared public (published as given, at no privacy cost): %1. "
                     "Make sure they did not come from this data.")
             .arg(publicColumns.join(QStringLiteral(", "))));
  }
  if (data.real && data.synthetic && data.real->num_rows() == data.synthetic->num_rows()) {
    warn(QObject::tr("The synthetic table has exactly as many rows as the input (%1): publishing "
                     "it reveals the input's size.")
             .arg(formatCount(data.real->num_rows())),
         true);
  }
  return facts;
}

std::vector<std::size_t> EntriesConcerning(const std::vector<LedgerEntry>& entries,
                                           const std::string& attribute, int attributeIndex) {
  std::vector<std::string> needles = {" of " + attribute};
  // The model's spends name attributes by index when the learner was given no names.
  if (attributeIndex >= 0) needles.push_back(" of attribute " + std::to_string(attributeIndex));
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string& label = entries[i].label;
    bool concerns = false;
    for (const std::string& needle : needles) {
      for (std::size_t at = label.find(needle); at != std::string::npos && !concerns;
           at = label.find(needle, at + 1)) {
        const std::size_t end = at + needle.size();
        concerns = end == label.size() || label[end] == ' ' || label[end] == ':';
      }
    }
    if (concerns) out.push_back(i);
  }
  return out;
}

std::vector<DomainProvenanceRow> DomainProvenance(const Description& description) {
  std::vector<DomainProvenanceRow> rows;
  for (const ColumnDomain& domain : description.domains) {
    DomainProvenanceRow row;
    row.column = toQString(domain.AttributeName());
    row.type = dataTypeLabel(domain.type, domain.categorical);
    if (domain.categorical) {
      row.domain = domain.categories.size() == 1
                       ? QObject::tr("1 category")
                       : QObject::tr("%1 categories").arg(domain.categories.size());
      if (domain.has_other) row.domain += QObject::tr(" + “%1”").arg(toQString(domain.other_label));
    } else if (domain.bins > 0) {
      const ColumnSchema* column = nullptr;
      const int index = description.schema.ColumnIndex(domain.name);
      if (index >= 0) column = &description.schema.columns[static_cast<std::size_t>(index)];
      const std::string first = domain.CodeLabel(0, column);
      const std::string last = domain.CodeLabel(static_cast<std::uint32_t>(domain.bins - 1), column);
      const QString unit = domain.is_geo()
                               ? (domain.bins == 1 ? QObject::tr("1 region") : QObject::tr("%1 regions").arg(domain.bins))
                               : (domain.bins == 1 ? QObject::tr("1 bin") : QObject::tr("%1 bins").arg(domain.bins));
      row.domain = unit +
                   QStringLiteral(": %1 … %2").arg(toQString(first), toQString(last));
    }
    if (domain.has_missing) row.domain += QObject::tr(" + missing");
    switch (domain.categories_source) {
      case DomainSource::kPublic: row.source = QObject::tr("public"); break;
      case DomainSource::kDp: row.source = QObject::tr("DP"); break;
      case DomainSource::kImported: row.source = QObject::tr("imported"); break;
    }
    row.provenance = toQString(domain.provenance);
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace deniable::ui
