// SPDX-License-Identifier: Apache-2.0
// Numbers formatted for people: "48,842 rows", "about 4 s", "120 MB". Counts, ε, δ and
// percentages come from ui/review/review_format.h (re-exported here) so that a figure reads the
// same in the workflow, the Review views and the release report.
#pragma once

#include <cstdint>

#include <QString>

#include "ui/review/review_format.h"

namespace deniable::ui {

QString formatRows(std::uint64_t rows);                  // "48,842 rows", "1 row"
// "1 column", "15 columns": the count, then the singular or plural noun.
QString countOf(std::uint64_t count, const QString& singular, const QString& plural);
QString formatSeconds(double seconds);                   // "0.4 s", "12 s", "3 min 5 s"
QString formatMegabytes(double megabytes);               // "120 MB", "1.5 GB"
QString formatBytes(std::int64_t bytes);                 // "512 bytes", "3.2 MB"
QString formatDecimal(double value, int significant);    // plain number, significant digits

// The default QLocale: the system's, or English when the system locale is "C" (so offscreen
// runs format the same way everywhere). Call once in main().
void installDefaultLocale();

}  // namespace deniable::ui
