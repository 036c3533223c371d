// SPDX-License-Identifier: Apache-2.0
#include "ui/text/format.h"

#include <cmath>

#include <QLocale>

namespace deniable::ui {

QString formatRows(std::uint64_t rows) {
  return countOf(rows, QStringLiteral("row"), QStringLiteral("rows"));
}

QString countOf(std::uint64_t count, const QString& singular, const QString& plural) {
  return QStringLiteral("%1 %2").arg(formatCount(count), count == 1 ? singular : plural);
}

QString formatDecimal(double value, int significant) {
  if (!std::isfinite(value)) return QStringLiteral("∞");
  QLocale locale;
  locale.setNumberOptions(QLocale::OmitGroupSeparator);
  return locale.toString(value, 'g', significant);
}

QString formatSeconds(double seconds) {
  QLocale locale;
  if (!(seconds >= 0)) seconds = 0;
  if (seconds < 1) return QStringLiteral("%1 ms").arg(std::lround(seconds * 1000));
  if (seconds < 10) return locale.toString(seconds, 'f', 1) + QStringLiteral(" s");
  if (seconds < 60) return locale.toString(std::round(seconds), 'f', 0) + QStringLiteral(" s");
  const auto whole = static_cast<long long>(std::round(seconds));
  if (whole < 3600) return QStringLiteral("%1 min %2 s").arg(whole / 60).arg(whole % 60);
  return QStringLiteral("%1 h %2 min").arg(whole / 3600).arg((whole % 3600) / 60);
}

QString formatMegabytes(double megabytes) {
  QLocale locale;
  if (megabytes >= 1000) return locale.toString(megabytes / 1000, 'f', 1) + QStringLiteral(" GB");
  if (megabytes >= 10) return locale.toString(std::round(megabytes), 'f', 0) + QStringLiteral(" MB");
  return locale.toString(megabytes, 'f', 1) + QStringLiteral(" MB");
}

QString formatBytes(std::int64_t bytes) {
  if (bytes < 1000) return QStringLiteral("%1 bytes").arg(bytes);
  if (bytes < 1000 * 1000) {
    return QLocale().toString(static_cast<double>(bytes) / 1000, 'f', 1) + QStringLiteral(" kB");
  }
  return formatMegabytes(static_cast<double>(bytes) / 1e6);
}

void installDefaultLocale() {
  QLocale locale = QLocale::system();
  if (locale.language() == QLocale::C) locale = QLocale(QLocale::English, QLocale::UnitedStates);
  QLocale::setDefault(locale);
}

}  // namespace deniable::ui
