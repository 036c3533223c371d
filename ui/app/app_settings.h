// SPDX-License-Identifier: Apache-2.0
// What the app remembers between sessions (QSettings): recent files and preferences. Window
// geometry and dock layout are saved by MainWindow itself.
#pragma once

#include <QString>
#include <QStringList>

namespace deniable::ui {

struct Preferences {
  unsigned threads = 0;              // engine worker threads; 0 = all cores
  QString export_directory;          // where Export proposes to write; empty = beside the input
  bool show_step_help = true;
};

class AppSettings {
 public:
  static constexpr int kMaxRecent = 8;

  static QStringList recentFiles();             // most recent first, existing files only
  static void addRecentFile(const QString& path);
  static void clearRecentFiles();

  static Preferences preferences();
  // Worker threads for the engine: the preference, or — when it is 0 ("automatic") — all cores
  // but one, which stays free for the UI thread so the window never stutters during a run.
  static unsigned engineThreads();
  static void setPreferences(const Preferences& preferences);

  // The demo dataset: in the source tree when it exists (development), else installed.
  static QString demoDatasetPath();
};

}  // namespace deniable::ui
