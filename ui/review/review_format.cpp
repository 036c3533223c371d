// SPDX-License-Identifier: Apache-2.0
#include "ui/review/review_format.h"

#include <cmath>
#include <cstdio>

#include <QLocale>

namespace deniable::ui {
namespace {

QString superscript(int exponent) {
  static const char16_t kDigits[] = {u'⁰', u'¹', u'²', u'³', u'⁴', u'⁵', u'⁶', u'⁷', u'⁸', u'⁹'};
  QString out;
  if (exponent < 0) out += QChar(u'⁻');
  const QString digits = QString::number(std::abs(exponent));
  for (QChar c : digits) out += QChar(kDigits[c.unicode() - u'0']);
  return out;
}

QString formatWith(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return QString::fromLatin1(buffer);
}

}  // namespace

QString formatCount(std::uint64_t count) {
  return QLocale(QLocale::English, QLocale::UnitedStates).toString(static_cast<qulonglong>(count));
}

QString formatEpsilon(double epsilon) {
  if (std::isinf(epsilon)) return QStringLiteral("∞");
  if (std::isnan(epsilon)) return QStringLiteral("n/a");
  QString text = formatWith("%.4g", epsilon);
  if (!text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e'))) text += ".0";
  return text;
}

QString formatDelta(double delta) {
  if (std::isnan(delta)) return QStringLiteral("n/a");
  if (delta == 0) return QStringLiteral("0");
  if (delta >= 1e-3) return formatWith("%.3g", delta);
  int exponent = static_cast<int>(std::floor(std::log10(delta)));
  double mantissa = delta / std::pow(10.0, exponent);
  if (mantissa >= 9.995) {  // 9.999e-8 prints as 10×10⁻⁸ otherwise
    mantissa /= 10;
    ++exponent;
  }
  const QString power = QStringLiteral("10") + superscript(exponent);
  if (std::fabs(mantissa - 1.0) < 5e-3) return power;
  return formatWith("%.3g", mantissa) + QStringLiteral("×") + power;
}

QString formatFraction(double value, int digits) {
  return QString::number(value, 'f', digits);
}

QString formatPercent(double fraction, int decimals) {
  return QString::number(fraction * 100.0, 'f', decimals) + QStringLiteral(" %");
}

double jsonNumber(const nlohmann::json& value, double fallback) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "inf" || text == "infinity" || text == "∞") return INFINITY;
  }
  return fallback;
}

QString toQString(const std::string& text) {
  return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QColor dataTypeColor(DataType type) {
  switch (type) {
    case DataType::kInteger: return QColor(0xa6, 0xc8, 0xea);   // light blue
    case DataType::kFloat: return QColor(0xb5, 0xe0, 0xb0);     // light green
    case DataType::kDateTime: return QColor(0xd4, 0xc4, 0xeb);  // light violet
    case DataType::kString: return QColor(0xf8, 0xcf, 0x9f);    // light orange
  }
  return QColor(Qt::lightGray);
}

QString dataTypeLabel(DataType type, bool categorical) {
  QString label = QString::fromLatin1(DataTypeName(type));
  if (categorical && type != DataType::kString) label += QStringLiteral(" (categorical)");
  return label;
}

QColor realColor() { return QColor(0x4c, 0x72, 0xb0); }
QColor syntheticColor() { return QColor(0xdd, 0x84, 0x52); }

}  // namespace deniable::ui
