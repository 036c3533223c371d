// SPDX-License-Identifier: Apache-2.0
#include "ui/text/errors.h"

#include <QCoreApplication>

namespace deniable::ui {

QString describeError(const Error& error) {
  const QString message = QString::fromStdString(error.message);
  auto tr = [](const char* text) { return QCoreApplication::translate("Errors", text); };
  switch (error.code) {
    case ErrorCode::kInvalidArgument: return tr("A setting is not valid: %1").arg(message);
    case ErrorCode::kParse: return tr("The data could not be read: %1").arg(message);
    case ErrorCode::kFailedPrecondition:
      return tr("This cannot be done with this data: %1").arg(message);
    case ErrorCode::kBudgetExhausted:
      return tr("The privacy budget is too small for this: %1").arg(message);
    case ErrorCode::kIo: return tr("A file could not be read or written: %1").arg(message);
    case ErrorCode::kCancelled: return tr("Cancelled: %1").arg(message);
    case ErrorCode::kInternal:
      return tr("Internal error (please report it): %1").arg(message);
  }
  return message;
}

}  // namespace deniable::ui
