// SPDX-License-Identifier: Apache-2.0
// "Copy as CLI command": the deniable-cli command line that reproduces a run headless, with
// --schema pointing to a saved schema file (the column settings). Arguments are quoted for a
// POSIX shell. A control split adds --control-fraction F --control-out FILE, the held-out rows
// beside the synthetic CSV: NAME-synthetic.csv gives NAME-control.csv (the Export page's
// default), any other OUTPUT.csv OUTPUT-control.csv.
#pragma once

#include <cstddef>

#include <QString>
#include <QStringList>

#include "ui/tasks/jobs.h"

namespace deniable::ui {

struct CliCommandFiles {
  QString input;
  QString schema;       // the saved column settings (required: the CLI would re-infer)
  QString output;       // the synthetic CSV
  QString description;  // empty: no --description
};

// The arguments after "deniable-cli" (unquoted), e.g. {"synthesize", "in.csv", "--mode", ...}.
QStringList cliArguments(const PrivacySettings& settings, std::size_t rows,
                         const CliCommandFiles& files);
// The whole command for a shell: "deniable-cli synthesize 'in.csv' --mode correlated ...".
QString cliCommand(const PrivacySettings& settings, std::size_t rows, const CliCommandFiles& files);

QString shellQuote(const QString& argument);
// The shortest decimal text that reads back as exactly `value` ("0.1", "1e-09").
QString exactNumber(double value);

}  // namespace deniable::ui
