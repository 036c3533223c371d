// SPDX-License-Identifier: Apache-2.0
#include "ui/app/app_setup.h"

#include <QApplication>
#include <QDir>
#include <QFontDatabase>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initDeniableResources() { Q_INIT_RESOURCE(resources); }

namespace deniable::ui {

void ensureResources() {
  static const bool done = [] {
    initDeniableResources();
    return true;
  }();
  (void)done;
}

int ensureFonts() {
  if (QFontDatabase::families().isEmpty()) {
    const QDir directory(QStringLiteral("/usr/share/fonts/truetype/dejavu"));
    for (const QString& file : directory.entryList({QStringLiteral("*.ttf")}, QDir::Files)) {
      QFontDatabase::addApplicationFont(directory.filePath(file));
    }
  }
  const QStringList families = QFontDatabase::families();
  if (!families.contains(QApplication::font().family()) &&
      families.contains(QStringLiteral("DejaVu Sans"))) {
    QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10));
  }
  return static_cast<int>(families.size());
}

}  // namespace deniable::ui
