// SPDX-License-Identifier: Apache-2.0
// What the Privacy tab and the release report state about a release's privacy, extracted once
// from the engine's own records so both say exactly the same thing: the ledger (replayed by
// PrivacyAccountant::FromJson, so the rows ARE the accountant's entries), the guarantees
// (from the engine's guarantee JSON — nothing is recomputed here), the plain statement, the
// domains' provenance, the deniable mode's pass rate, and warnings.
//
// Honesty rule: the first guarantee line is always the WHOLE release; per-record figures are
// labelled as such and never stand in for it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <QString>
#include <QStringList>

#include "engine/dp/privacy_accountant.h"
#include "ui/review/review_data.h"

namespace deniable::ui {

struct GuaranteeLine {
  QString label;
  QString value;
  QString note;
  bool headline = false;  // the whole-release line
};

struct ReviewWarning {
  QString text;
  // True when the warning itself states a fact about the real data (e.g. its row count):
  // shown to the owner, left out of a shareable report.
  bool owner_only = false;
};

struct DomainProvenanceRow {
  QString column;
  QString type;
  QString domain;      // "12 categories + Other + missing", "[17, 90], 20 bins"
  QString source;      // "public", "DP", "imported"
  QString provenance;  // the engine's text
};

struct PrivacyFacts {
  bool ledger_ok = false;
  QString ledger_error;  // why the ledger could not be read (e.g. an imported description)
  std::vector<LedgerEntry> entries;
  std::vector<PrivacyAccountant::Partition> partitions;
  PrivacyCost budget;
  PrivacyCost ledger_total;

  PrivacyCost release;  // the whole release
  QString statement;    // the engine's plain-words statement of the whole-release guarantee
  std::vector<GuaranteeLine> guarantees;  // guarantees[0] is the whole release

  bool deniable = false;
  std::uint64_t candidates = 0;  // attempts (see SynthesisSummary), not candidates tested
  std::uint64_t passed = 0;
  bool reproducible_not_private = false;
  std::vector<ReviewWarning> warnings;
};

PrivacyFacts ExtractPrivacyFacts(const ReviewData& data);

// Ledger entries (indices) that concern one attribute: its domain (categories, bounds,
// missing code) and its noisy counts / histogram, matched on the engine's labels
// ("... of NAME", "... of NAME | (parents)", "... of NAME: ..."), or "... of attribute N" when
// the learner labelled it by index (attributeIndex >= 0).
std::vector<std::size_t> EntriesConcerning(const std::vector<LedgerEntry>& entries,
                                           const std::string& attribute, int attributeIndex = -1);

std::vector<DomainProvenanceRow> DomainProvenance(const Description& description);

QString formatCost(PrivacyCost cost);  // "ε = 1.0, δ = 10⁻⁹"
// One ledger entry's cost: formatCost(e.cost), or "ρ = 0.0012 (zCDP)" for a zCDP entry, whose
// ρ's add up and are converted to (ε, δ) once for the whole block (dp/privacy_accountant.h):
// an ε per zCDP entry would invite adding them up.
QString formatEntryCost(const LedgerEntry& entry);
// The ε and δ columns of a ledger table for an entry: {"ρ = …", "zCDP"} for a zCDP entry.
std::pair<QString, QString> ledgerCostColumns(const LedgerEntry& entry);

// A ledger label for people: "attribute N" (how a learner given no names labels its spends)
// becomes the attribute's name, names[N].
QString readableLedgerLabel(const std::string& label, const std::vector<std::string>& names);

}  // namespace deniable::ui
