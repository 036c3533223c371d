// SPDX-License-Identifier: Apache-2.0
// What the Guarantee panel and the Privacy page say: the numbers and the plain sentence come
// from the engine (PlainGuarantee before a run, the accountant's ledger and the description's
// guarantee after one) — never recomputed here — plus warnings a data owner must see.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include <QString>
#include <QStringList>

#include "engine/core/table.h"
#include "engine/schema/schema.h"

namespace deniable::ui {

class Session;

struct GuaranteeSummary {
  bool available = false;     // an input is open
  bool from_ledger = false;   // numbers are what a finished run spent (else: the budget)
  QString mode;               // "Correlated (PrivBayes)"
  QString scope;              // what the numbers cover
  std::vector<std::pair<QString, QString>> numbers;  // ("Whole release", "ε = 1.0, δ = 1e-9")
  QString statement;          // the engine's plain sentence
  QStringList warnings;       // privacy warnings (things that weaken or qualify the guarantee)
  QStringList notes;          // facts worth knowing (identifiers regenerated, rows public)
};

// `use_result`: describe the last run's ledger when it is up to date (the Guarantee panel);
// false describes what the current settings promise (the Privacy page).
GuaranteeSummary summarizeGuarantee(const Session& session, bool use_result = true);

QString modeTitle(int mode);  // SynthesisMode as int: "Random", "Independent", ...

// The column's exact minimum and maximum in the data (numeric columns; nullopt when no value
// parses). For the owner's own checks only: never shown in a release.
std::optional<std::pair<double, double>> dataRange(const RawTable& table, std::size_t column,
                                                   const ColumnSchema& schema);
// What to say about a column's user-declared public domain: `suspicious` when it looks read
// off the data (bounds equal to the exact range; a category list equal to the data's values,
// one of them rare), and whether bounds / categories are declared at all (public only if they
// are public knowledge: the panel says that once for all such columns).
struct PublicDomainCheck {
  QStringList suspicious;
  bool declares_bounds = false;
  bool declares_categories = false;
};
PublicDomainCheck checkPublicDomain(const RawTable& table, std::size_t column,
                                    const ColumnSchema& schema);
// The same as sentences for one column (the Columns step's details).
QStringList publicDomainWarnings(const RawTable& table, std::size_t column,
                                 const ColumnSchema& schema);

}  // namespace deniable::ui
