// SPDX-License-Identifier: Apache-2.0
#include "ui/project/cli_command.h"

#include <charconv>

#include <QRegularExpression>

#include "engine/pipeline/settings_table.h"


namespace deniable::ui {

QString exactNumber(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return QString::fromLatin1(buffer, static_cast<qsizetype>(result.ptr - buffer));
}

QString shellQuote(const QString& argument) {
  static const QRegularExpression kSafe(QStringLiteral("^[A-Za-z0-9_./:=+,-]+$"));
  if (!argument.isEmpty() && kSafe.match(argument).hasMatch()) return argument;
  QString quoted = argument;
  quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
  return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// Every setting of the table that has a flag and applies to the mode, in the table's order;
// left out when the CLI's default would be the same anyway: an automatic value ("auto"), a
// false switch, an empty text, and the worker threads (a preference).
QStringList cliArguments(const PrivacySettings& settings, std::size_t rows,
                         const CliCommandFiles& files) {
  const ModelSettings& model = settings.model;
  QStringList args = {QStringLiteral("synthesize"), files.input};
  for (const SettingSpec& spec : ModelSettingsTable()) {
    if (!*spec.cli_flag || !spec.persisted || !SettingApplies(spec, model)) continue;
    const std::string text = SettingText(spec, model);
    if (text == "auto" || text.empty() || (spec.kind == SettingKind::kBool && text == "false")) {
      continue;
    }
    args << QString::fromUtf8(spec.cli_flag);
    if (*spec.value_name) args << QString::fromStdString(text);
  }
  args << QStringLiteral("--schema") << files.schema << QStringLiteral("-n")
       << QString::number(static_cast<qulonglong>(rows)) << QStringLiteral("-o") << files.output;
  if (!files.description.isEmpty()) args << QStringLiteral("--description") << files.description;
  if (model.control_fraction > 0) {
    // The control split has no flag in the settings table: the CLI's needs a file beside it.
    QString control = files.output;
    if (control.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive)) control.chop(4);
    if (control.endsWith(QStringLiteral("-synthetic"))) control.chop(10);
    control += QStringLiteral("-control.csv");
    args << QStringLiteral("--control-fraction") << exactNumber(model.control_fraction)
         << QStringLiteral("--control-out") << control;
  }
  if (settings.reproducible) {
    args << QStringLiteral("--seed") << QString::number(static_cast<qulonglong>(settings.seed));
  }
  return args;
}

QString cliCommand(const PrivacySettings& settings, std::size_t rows, const CliCommandFiles& files) {
  QStringList quoted = {QStringLiteral("deniable-cli")};
  for (const QString& argument : cliArguments(settings, rows, files)) quoted << shellQuote(argument);
  return quoted.join(QLatin1Char(' '));
}

}  // namespace deniable::ui
