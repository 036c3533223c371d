// SPDX-License-Identifier: Apache-2.0
#include "ui/project/cli_command.h"

#include <charconv>

#include <QRegularExpression>


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

QStringList cliArguments(const PrivacySettings& settings, std::size_t rows,
                         const CliCommandFiles& files) {
  const ModelSettings& model = settings.model;
  QStringList args = {QStringLiteral("synthesize"), files.input,
                      QStringLiteral("--mode"), QString::fromUtf8(SynthesisModeName(model.mode)),
                      QStringLiteral("--epsilon"), exactNumber(model.epsilon),
                      QStringLiteral("--delta"), exactNumber(model.delta)};
  if (model.bins > 0) args << QStringLiteral("--bins") << QString::number(model.bins);
  if (model.domain_fraction) {
    args << QStringLiteral("--domain-fraction") << exactNumber(*model.domain_fraction);
  }
  if (model.mode == SynthesisMode::kCorrelated) {
    args << QStringLiteral("--degree") << QString::number(model.degree)
         << QStringLiteral("--structure-fraction") << exactNumber(model.structure_fraction);
  }
  if (model.mode == SynthesisMode::kMarginals) {
    const MarginalsSettings& marginals = model.marginals;
    args << QStringLiteral("--mechanism")
         << QString::fromUtf8(MarginalsMechanismName(marginals.mechanism));
    // The project file's other marginals settings, when not the defaults.
    if (marginals.rounds > 0) args << QStringLiteral("--rounds") << QString::number(marginals.rounds);
    if (marginals.max_model_mb > 0) {
      args << QStringLiteral("--max-model-mb") << exactNumber(marginals.max_model_mb);
    }
    if (!marginals.target.empty()) {
      args << QStringLiteral("--target") << QString::fromStdString(marginals.target);
    }
    if (marginals.iterations > 0) {
      args << QStringLiteral("--iterations") << QString::number(marginals.iterations);
    }
  }
  if (model.mode == SynthesisMode::kDeniable) {
    const DeniableOptions& deniable = model.deniable;
    args << QStringLiteral("--k") << QString::number(deniable.k) << QStringLiteral("--gamma")
         << exactNumber(deniable.gamma) << QStringLiteral("--epsilon0")
         << exactNumber(deniable.epsilon0) << QStringLiteral("--maxcost")
         << QString::number(static_cast<qulonglong>(deniable.maxcost));
    if (deniable.omega_min > 0 || deniable.omega_max > 0) {
      args << QStringLiteral("--omega")
           << (deniable.omega_min == deniable.omega_max
                   ? QString::number(deniable.omega_min)
                   : QStringLiteral("%1-%2").arg(deniable.omega_min).arg(deniable.omega_max));
    }
    // The project file's other deniable settings, when not the defaults.
    const DeniableOptions defaults;
    if (deniable.deterministic_test) args << QStringLiteral("--deterministic-test");
    if (deniable.structure != defaults.structure) {
      args << QStringLiteral("--structure")
           << QString::fromUtf8(DeniableStructureName(deniable.structure));
    }
    if (deniable.split_structure != defaults.split_structure ||
        deniable.split_parameters != defaults.split_parameters ||
        deniable.split_seeds != defaults.split_seeds) {
      args << QStringLiteral("--split")
           << QStringLiteral("%1,%2,%3").arg(exactNumber(deniable.split_structure),
                                             exactNumber(deniable.split_parameters),
                                             exactNumber(deniable.split_seeds));
    }
    if (deniable.max_candidates > 0) {
      args << QStringLiteral("--max-candidates")
           << QString::number(static_cast<qulonglong>(deniable.max_candidates));
    }
  }
  args << QStringLiteral("--schema") << files.schema << QStringLiteral("-n")
       << QString::number(static_cast<qulonglong>(rows)) << QStringLiteral("-o") << files.output;
  if (!files.description.isEmpty()) args << QStringLiteral("--description") << files.description;
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
