// SPDX-License-Identifier: Apache-2.0
// deniable: the desktop application.
//   deniable [FILE]               open a CSV or a .deniable project
//   deniable --demo               open the bundled demo dataset
//   deniable --screenshots DIR    render every step and review tab after a real run, then exit
//   deniable --measure-stall CSV  benchmark: the UI thread's longest stall during a run
#include <cstdio>
#include <cstdlib>
#include <exception>

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include "ui/app/app_setup.h"
#include "ui/app_modes/screenshot_runner.h"
#include "ui/app_modes/stall_meter.h"
#include "ui/main_window.h"
#include "ui/text/format.h"

namespace {

// The third exception boundary of STYLE.md §3: an event handler that throws must not take the
// data owner's session down silently.
class Application final : public QApplication {
 public:
  using QApplication::QApplication;
  bool notify(QObject* receiver, QEvent* event) override {
    try {
      return QApplication::notify(receiver, event);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "deniable: internal error in an event handler: %s\n", e.what());
    } catch (...) {
      std::fprintf(stderr, "deniable: internal error in an event handler\n");
    }
    return false;
  }
};

bool wantsOffscreen(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--screenshots" || arg == "--measure-stall") return true;
    // --help and --version print and exit: they must work without a display too.
    if (arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "--version" || arg == "-v") {
      return true;
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  // Headless modes render offscreen unless the caller chose a platform.
  if (std::getenv("QT_QPA_PLATFORM") == nullptr) {
    if (wantsOffscreen(argc, argv)) {
      setenv("QT_QPA_PLATFORM", "offscreen", 1);
    } else if (std::getenv("DISPLAY") == nullptr && std::getenv("WAYLAND_DISPLAY") == nullptr) {
      // Qt would abort with a plugin error; say what to do instead.
      std::fprintf(stderr,
                   "deniable: no display (DISPLAY and WAYLAND_DISPLAY are not set).\n"
                   "  For headless work use deniable-cli (deniable-cli --help);\n"
                   "  to render the app's steps to PNG files: deniable --screenshots DIR.\n");
      return 1;
    }
  }
  Application app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("Deniable"));
  QApplication::setOrganizationName(QStringLiteral("Deniable"));
  QApplication::setApplicationVersion(QStringLiteral(DENIABLE_VERSION));
  QApplication::setDesktopFileName(QStringLiteral("deniable"));
  deniable::ui::installDefaultLocale();
  deniable::ui::ensureFonts();

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Turn a sensitive CSV into differentially private synthetic data."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption demo(QStringLiteral("demo"), QStringLiteral("Open the demo dataset."));
  const QCommandLineOption screenshots(
      QStringLiteral("screenshots"),
      QStringLiteral("Render every step after a real run on the demo dataset to DIR, then exit."),
      QStringLiteral("DIR"));
  const QCommandLineOption stall(
      QStringLiteral("measure-stall"),
      QStringLiteral("Benchmark: the UI thread's longest stall while CSV is opened and run."),
      QStringLiteral("CSV"));
  const QCommandLineOption screenshot_size(
      QStringLiteral("screenshot-size"),
      QStringLiteral("Window size for --screenshots, e.g. 1024x700 (default 1280x800)."),
      QStringLiteral("WxH"));
  parser.addOptions({demo, screenshots, screenshot_size, stall});
  parser.addPositionalArgument(QStringLiteral("file"),
                               QStringLiteral("A CSV file or a .deniable project to open."),
                               QStringLiteral("[file]"));
  parser.process(app);

  deniable::ui::MainWindow window;
  if (parser.isSet(screenshots)) {
    auto* runner = new deniable::ui::ScreenshotRunner(&window, parser.value(screenshots), &window);
    if (parser.isSet(screenshot_size)) {
      const QStringList parts = parser.value(screenshot_size).split(QLatin1Char('x'));
      const int width = parts.size() == 2 ? parts[0].toInt() : 0;
      const int height = parts.size() == 2 ? parts[1].toInt() : 0;
      if (width < 320 || height < 240) {
        std::fprintf(stderr, "deniable: --screenshot-size: expected WxH, at least 320x240 (got %s)\n",
                     qPrintable(parser.value(screenshot_size)));
        return 2;
      }
      runner->setSize(QSize(width, height));
    }
    QTimer::singleShot(0, runner, &deniable::ui::ScreenshotRunner::start);
    return QApplication::exec();
  }
  if (parser.isSet(stall)) {
    auto* meter = new deniable::ui::StallMeter(&window, parser.value(stall), &window);
    QTimer::singleShot(0, meter, &deniable::ui::StallMeter::start);
    return QApplication::exec();
  }
  window.show();
  if (parser.isSet(demo)) {
    QTimer::singleShot(0, &window, &deniable::ui::MainWindow::openDemo);
  } else if (!parser.positionalArguments().isEmpty()) {
    const QString path = parser.positionalArguments().front();
    QTimer::singleShot(0, &window, [&window, path] { window.openPath(path); });
  }
  return QApplication::exec();
}
