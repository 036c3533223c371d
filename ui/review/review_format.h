// SPDX-License-Identifier: Apache-2.0
// Number and text formatting shared by the Review views and the release report, so that a
// figure reads the same everywhere ("48,842 rows", "ε = 1.0", "δ = 10⁻⁹", "0.3 %"). Numbers are
// formatted in English (the report is a document that travels), not in the system locale.
#pragma once

#include <cstdint>
#include <string>

#include <QColor>
#include <QString>
#include <nlohmann/json.hpp>

#include "engine/schema/schema.h"

namespace deniable::ui {

QString formatCount(std::uint64_t count);         // 48842 -> "48,842"
QString formatEpsilon(double epsilon);            // 1 -> "1.0", 0.123456 -> "0.1235", inf -> "∞"
QString formatDelta(double delta);                // 1e-9 -> "10⁻⁹", 2.5e-7 -> "2.5×10⁻⁷", 0 -> "0"
QString formatFraction(double value, int digits = 3);  // 0.0341 -> "0.034"
QString formatPercent(double fraction, int decimals = 1);  // 0.0034 -> "0.3 %"
// A JSON number or the string "inf" (the engine writes an infinite ε so) as a double.
double jsonNumber(const nlohmann::json& value, double fallback = 0.0);

QString toQString(const std::string& text);

// One colour per attribute type (network nodes, legends), light enough for black text.
QColor dataTypeColor(DataType type);
QString dataTypeLabel(DataType type, bool categorical);  // "Integer", "String (categorical)"

// Colours of the two tables in every real-vs-synthetic chart.
QColor realColor();
QColor syntheticColor();

}  // namespace deniable::ui
