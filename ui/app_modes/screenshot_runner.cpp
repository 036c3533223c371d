// SPDX-License-Identifier: Apache-2.0
#include "ui/app_modes/screenshot_runner.h"

#include <cstdio>

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QTimer>
#include <QCheckBox>

#include "ui/main_window.h"
#include "ui/pages/columns_page.h"
#include "ui/pages/export_page.h"
#include "ui/pages/privacy_page.h"
#include "ui/pages/review_page.h"
#include "ui/project/session_files.h"
#include "ui/review/attack_view.h"
#include "ui/review/attribute_tvd_model.h"
#include "ui/review/histogram_view.h"
#include "ui/review/review_widget.h"
#include "ui/session/session.h"
#include "ui/tasks/domain_forecaster.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/errors.h"
#include "ui/widgets/mode_card.h"

namespace deniable::ui {

ScreenshotRunner::ScreenshotRunner(MainWindow* window, QString directory, QObject* parent)
    : QObject(parent), window_(window), directory_(std::move(directory)) {}

void ScreenshotRunner::then(std::function<void()> step, int delay_ms) {
  QTimer::singleShot(delay_ms, this, std::move(step));
}

void ScreenshotRunner::grab(const QString& name) {
  const QString path =
      QDir(directory_).filePath(QStringLiteral("%1-%2.png").arg(++counter_, 2, 10, QLatin1Char('0')).arg(name));
  if (!window_->grab().save(path)) {
    fail(QStringLiteral("cannot write %1").arg(path));
    return;
  }
  written_ << path;
  std::printf("%s\n", qPrintable(path));
}

void ScreenshotRunner::whenForecastReady(std::function<void()> step) {
  DomainForecaster* forecaster = window_->columnsPage()->forecaster();
  if (forecaster->state() != DomainForecaster::State::kComputing) {
    then(std::move(step));
    return;
  }
  auto connection = std::make_shared<QMetaObject::Connection>();
  *connection = connect(forecaster, &DomainForecaster::changed, this,
                        [this, forecaster, connection, step = std::move(step)] {
                          if (forecaster->state() == DomainForecaster::State::kComputing) return;
                          disconnect(*connection);
                          then(step);
                        });
}

void ScreenshotRunner::whenAttacksReady(std::function<void()> step) {
  AttackView* view = window_->reviewPage()->reviewWidget()->attackView();
  if (!view->busy()) {
    then(std::move(step));
    return;
  }
  auto connection = std::make_shared<QMetaObject::Connection>();
  *connection = connect(view, &AttackView::computationFinished, this,
                        [this, view, connection, step = std::move(step)] {
                          if (view->busy()) return;
                          disconnect(*connection);
                          then(step);
                        });
}

void ScreenshotRunner::fail(const QString& why) {
  std::fprintf(stderr, "deniable --screenshots: %s\n", qPrintable(why));
  QApplication::exit(1);
}

void ScreenshotRunner::next() {
  if (next_step_ >= steps_.size()) {
    std::printf("%lld screenshots written to %s\n", static_cast<long long>(written_.size()),
                qPrintable(directory_));
    QApplication::exit(0);
    return;
  }
  then(steps_[next_step_++]);
}

void ScreenshotRunner::start() {
  if (!QDir().mkpath(directory_)) return fail(QStringLiteral("cannot create %1").arg(directory_));
  window_->resize(size_);
  window_->show();
  JobController* jobs = window_->jobs();
  // Each job's end moves the script on (or stops it on a failure).
  connect(jobs, &JobController::finished, this,
          [this](JobController::Kind, JobController::End end, const QString& message) {
            if (end != JobController::End::kSucceeded) return fail(message);
            next();
          });
  auto page = [this](Step step, const QString& name) {
    return [this, step, name] {
      window_->showStep(step);
      then([this, name] {
        grab(name);
        next();
      });
    };
  };
  steps_ = {
      [this] {
        grab(QStringLiteral("welcome"));
        if (auto s = window_->files()->openDemo(); !s) fail(describeError(s.error()));
      },  // continues when the load finishes
      page(Step::kData, QStringLiteral("data")),
      [this] {
        window_->showStep(Step::kColumns);
        window_->columnsPage()->selectColumn(0);
        whenForecastReady([this] {
          grab(QStringLiteral("columns"));
          next();
        });
      },
      // The forecast of a column whose rare values the private selection would merge.
      [this] {
        const int column = window_->session()->schema().ColumnIndex("education-num");
        if (column >= 0) window_->columnsPage()->selectColumn(column);
        whenForecastReady([this] {
          grab(QStringLiteral("columns-forecast"));
          next();
        });
      },
      page(Step::kPrivacy, QStringLiteral("privacy")),
      [this] {
        window_->privacyPage()->showMoreSettings();
        then([this] {
          grab(QStringLiteral("privacy-domain-share"));
          next();
        });
      },
      [this] {
        // Hold out 10 % of the rows, so that Review → Attacks has figures to show.
        PrivacySettings settings = window_->session()->settings();
        settings.model.control_fraction = 0.1;
        window_->session()->editSettings(settings, QStringLiteral("control split"));
        window_->showStep(Step::kRun);
        then([this] {
          grab(QStringLiteral("run-before"));
          window_->jobs()->startRun();  // continues when the run finishes
        });
      },
      page(Step::kRun, QStringLiteral("run-done")),
  };
  for (ReviewTab tab : kAllReviewTabs) {
    steps_.push_back([this, tab] {
      window_->showStep(Step::kReview);
      window_->reviewPage()->reviewWidget()->showTab(tab);
      then([this, tab] {
        auto shoot = [this, tab] {
          grab(QStringLiteral("review-") + reviewTabName(tab));
          next();
        };
        if (tab == ReviewTab::kAttacks) {
          whenAttacksReady(shoot);
        } else {
          shoot();
        }
      }, 600);
    });
  }
  // Histograms over the model's bins: a column with spikes as shares per bin and as a density,
  // and one whose range misses part of the data.
  const struct {
    const char* column;
    int scale;
    const char* name;
  } model_bins[] = {{"hours-per-week", 0, "review-model-bins"},
                    {"hours-per-week", 1, "review-model-bins-density"},
                    {"capital-gain", 0, "review-model-bins-clamped"}};
  for (const auto& shot : model_bins) {
    steps_.push_back([this, column = std::string(shot.column), scale = shot.scale,
                      name = QString::fromLatin1(shot.name)] {
      window_->showStep(Step::kReview);
      ReviewWidget* review = window_->reviewPage()->reviewWidget();
      review->showTab(ReviewTab::kHistograms);
      HistogramView* view = review->histogramView();
      for (int row = 0; row < view->attributeModel()->rowCount(); ++row) {
        const int index = view->attributeModel()->reportIndex(row);
        if (review->reviewData()->metrics.columns[static_cast<std::size_t>(index)].name == column) {
          view->showAttribute(index);
        }
      }
      view->modelBinsButton()->setChecked(true);
      view->modelBinsScaleBox()->setCurrentIndex(scale);
      then([this, name] {
        grab(name);
        next();
      }, 600);
    });
  }
  steps_.push_back([this] {
    window_->reviewPage()->reviewWidget()->histogramView()->modelBinsButton()->setChecked(false);
    window_->showStep(Step::kExport);
    if (!export_dir_.isValid()) return fail(QStringLiteral("no temporary folder for the export"));
    window_->exportPage()->setDirectory(export_dir_.path());
    if (!window_->exportPage()->startExport()) fail(window_->exportPage()->bannerText());
  });  // continues when the export finishes
  steps_.push_back(page(Step::kExport, QStringLiteral("export")));
  // The plausibly deniable mode: its settings and the advisor's pass-rate grid.
  steps_.push_back([this] {
    window_->showStep(Step::kPrivacy);
    window_->privacyPage()->modeCard(SynthesisMode::kDeniable)->setChecked(true);
    if (!window_->jobs()->startAdvice()) fail(QStringLiteral("cannot start the pass-rate estimate"));
  });  // continues when the estimate finishes
  steps_.push_back([this] {
    window_->privacyPage()->showDeniableSettings();
    then([this] {
      grab(QStringLiteral("privacy-deniable"));
      next();
    });
  });
  then(steps_[next_step_++], 400);
}

}  // namespace deniable::ui
