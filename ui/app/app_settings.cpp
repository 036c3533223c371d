// SPDX-License-Identifier: Apache-2.0
#include "ui/app/app_settings.h"

#include <algorithm>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QThread>

namespace deniable::ui {
namespace {
constexpr char kRecentKey[] = "files/recent";
}

QStringList AppSettings::recentFiles() {
  QStringList out;
  for (const QString& path : QSettings().value(kRecentKey).toStringList()) {
    if (QFileInfo::exists(path)) out << path;
  }
  return out;
}

void AppSettings::addRecentFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList files = QSettings().value(kRecentKey).toStringList();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecent) files.removeLast();
  QSettings().setValue(kRecentKey, files);
}

void AppSettings::clearRecentFiles() { QSettings().remove(kRecentKey); }

Preferences AppSettings::preferences() {
  QSettings settings;
  Preferences out;
  out.threads = settings.value(QStringLiteral("preferences/threads"), 0).toUInt();
  out.export_directory = settings.value(QStringLiteral("preferences/exportDirectory")).toString();
  out.show_step_help = settings.value(QStringLiteral("ui/showStepHelp"), true).toBool();
  return out;
}

unsigned AppSettings::engineThreads() {
  const unsigned preferred = preferences().threads;
  if (preferred > 0) return preferred;
  return static_cast<unsigned>(std::max(1, QThread::idealThreadCount() - 1));
}

void AppSettings::setPreferences(const Preferences& preferences) {
  QSettings settings;
  settings.setValue(QStringLiteral("preferences/threads"), preferences.threads);
  settings.setValue(QStringLiteral("preferences/exportDirectory"), preferences.export_directory);
  settings.setValue(QStringLiteral("ui/showStepHelp"), preferences.show_step_help);
}

QString AppSettings::demoDatasetPath() {
  const QString source = QStringLiteral(DENIABLE_DEMO_DATASET_SOURCE);
  if (QFileInfo::exists(source)) return source;
  // Installed: relative to the executable first (a relocated .deb prefix), then the
  // configured prefix.
  const QString relative = QDir(QCoreApplication::applicationDirPath())
                               .filePath(QStringLiteral("../share/deniable/demo/adult_sample.csv"));
  if (QFileInfo::exists(relative)) return QFileInfo(relative).canonicalFilePath();
  return QStringLiteral(DENIABLE_DEMO_DATASET_INSTALLED);
}

}  // namespace deniable::ui
