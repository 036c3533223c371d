// SPDX-License-Identifier: Apache-2.0
#include "ui/review/attack_view.h"

#include <algorithm>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>

#include "engine/evaluate/verdict.h"
#include "ui/review/attack_chart.h"
#include "ui/review/compute_bar.h"
#include "ui/review/review_format.h"
#include "ui/review/review_layout.h"
#include "ui/review/verdict_facts.h"

namespace deniable::ui {
namespace {

QTableView* factTable(QStandardItemModel* model, const QString& tip) {
  auto* view = new QTableView;
  view->setModel(model);
  setUpFactTable(view);
  view->horizontalHeader()->setStretchLastSection(false);  // numbers beside their labels
  view->setToolTip(tip);
  view->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  return view;
}

// The table as tall as its rows: the tab scrolls as a whole, not each table.
void fitHeight(QTableView* view) {
  const int rows = view->model()->rowCount();
  int height = view->horizontalHeader()->height() + 2 * view->frameWidth() + 2;
  for (int row = 0; row < rows; ++row) height += view->rowHeight(row);
  view->setFixedHeight(height);
}

QStandardItem* cell(const QString& text, bool number) {
  auto* item = new QStandardItem(text);
  item->setToolTip(text);
  if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

QString plain(const QString& text) { return text.toHtmlEscaped(); }

QString score(double value) { return QString::number(value, 'f', 3); }

}  // namespace

AttackView::AttackView(QWidget* parent)
    : QWidget(parent),
      ownerNote_(ownerOnlyNote(tr("<b>For your eyes only.</b> These figures are computed from "
                                  "your real rows: do not publish them."))),
      noControl_(new QWidget),
      problem_(wrappedLabel(QStringLiteral("attackProblem"))),
      setUpButton_(new QPushButton(tr("Hold out rows on the Privacy page…"))),
      controls_(new QWidget),
      target_(new QComboBox),
      threshold_(new QDoubleSpinBox),
      summary_(wrappedLabel(QStringLiteral("attackSummary"))),
      scope_(wrappedLabel(QStringLiteral("attackScope"))),
      results_(new QWidget),
      chart_(new AttackChart),
      attackModel_(new QStandardItemModel(this)),
      closeness_(wrappedLabel(QStringLiteral("attackCloseness"))),
      closenessModel_(new QStandardItemModel(this)),
      ml_(wrappedLabel(QStringLiteral("attackMl"))),
      mlModel_(new QStandardItemModel(this)),
      importanceModel_(new QStandardItemModel(this)) {
  setUpComputation(
      this, tr("Run the attacks again"), QStringLiteral("attackStatus"), computeAttacks,
      tr("Attacking the release…"), [this] { state_ = State::kComputing; },
      [this](const AttackOutcome* outcome) { onFinished(outcome); }, /*withText=*/true);
  bar_->setCanCompute([this] { return data_ != nullptr && state_ != State::kNoControl; });
  styleNote(summary_, NoteStyle::kResult);
  styleNote(scope_, NoteStyle::kScope);
  styleNote(problem_, NoteStyle::kExplanation);

  // Without control rows: the explanation and the way to the setting.
  setUpButton_->setObjectName(QStringLiteral("attackSetUp"));
  setUpButton_->setToolTip(tr("Open the Privacy page at \"Hold out rows to test the release "
                              "against attacks\"; then run again"));
  auto* noControlLayout = new QVBoxLayout(noControl_);
  noControlLayout->setContentsMargins(0, 0, 0, 0);
  noControlLayout->addWidget(problem_);
  auto* buttonRow = new QHBoxLayout;
  buttonRow->addWidget(setUpButton_);
  buttonRow->addStretch(1);
  noControlLayout->addLayout(buttonRow);

  target_->setObjectName(QStringLiteral("attackTarget"));
  target_->setToolTip(tr("The column a model should predict (classification for categories, "
                         "regression for numbers): a model trained on the synthetic rows is "
                         "compared with one trained on the real rows. Preset from the role "
                         "\"target\" (Columns step); none skips the machine-learning part."));
  target_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  target_->setMinimumContentsLength(12);
  threshold_->setObjectName(QStringLiteral("attackThreshold"));
  threshold_->setRange(0.01, 1);
  threshold_->setDecimals(2);
  threshold_->setSingleStep(0.01);
  threshold_->setValue(kAttackRiskThreshold);
  threshold_->setKeyboardTracking(false);
  threshold_->setToolTip(tr("The highest attack risk you accept (default 0.10: the release "
                            "turns at most a tenth of the attacker's failures on people it never "
                            "saw into successes on its own rows). The verdict is red when an "
                            "attack's whole interval lies above it, amber when its estimate "
                            "does."));
  // Two rows, so that the tab fits beside the Guarantee panel in a 1024-pixel window.
  auto* controlsLayout = new QVBoxLayout(controls_);
  controlsLayout->setContentsMargins(0, 0, 0, 0);
  auto* settingsRow = new QHBoxLayout;
  settingsRow->addWidget(new QLabel(tr("ML target")));
  settingsRow->addWidget(target_);
  settingsRow->addSpacing(12);
  settingsRow->addWidget(new QLabel(tr("Acceptable risk ≤")));
  settingsRow->addWidget(threshold_);
  settingsRow->addStretch(1);
  controlsLayout->addLayout(settingsRow);
  controlsLayout->addWidget(bar_);

  attackView_ = factTable(attackModel_, tr("Each attack's risk (0 = no more than about anyone) "
                                           "and its success rates: on the rows the release was "
                                           "made from, on the rows held out, and for a random "
                                           "guess (hover a rate for its 95% interval)"));
  closenessView_ = factTable(closenessModel_, tr("Exact copies and distances to the closest "
                                                 "record, against the rows the release was "
                                                 "made from (its rows) and against the rows held "
                                                 "out; distances to equally many rows of each, "
                                                 "ties count half"));
  mlView_ = factTable(mlModel_, tr("Scores on the held-out rows, which neither model saw"));
  importanceView_ = factTable(importanceModel_,
                              tr("Each feature's share of the model's total gain: a release "
                                 "that keeps what matters ranks the features alike"));

  auto* resultsLayout = new QVBoxLayout(results_);
  resultsLayout->setContentsMargins(0, 0, 0, 0);
  resultsLayout->addWidget(new QLabel(tr("<b>Attacks</b> (success rates, 95% intervals)")));
  resultsLayout->addWidget(chart_);
  resultsLayout->addWidget(attackView_);
  resultsLayout->addWidget(new QLabel(tr("<b>Copies and closest records</b>")));
  resultsLayout->addWidget(closeness_);
  resultsLayout->addWidget(closenessView_);
  resultsLayout->addWidget(new QLabel(tr("<b>Machine-learning utility</b>")));
  resultsLayout->addWidget(ml_);
  resultsLayout->addWidget(mlView_);
  resultsLayout->addWidget(importanceView_);

  auto* notes = wrappedLabel(QStringLiteral("attackNotes"));
  styleNote(notes, NoteStyle::kScope);
  notes->setText(tr(
      "How to read this (Giomi et al., PETS 2023): each attack uses only the synthetic rows. "
      "It is run against the rows the release was made from and, as a baseline, against rows "
      "held out before the run, which the model never saw. The risk is the share of the "
      "attacker's failures on the held-out rows that the release turns into successes on its "
      "own rows: 0 means it tells no more about the people in your data than about anyone, 1 "
      "that every failure becomes a success. Its interval holds with at least 90% confidence. "
      "An attack that does no better than a random guess measures nothing."));

  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->addWidget(ownerNote_);
  layout->addWidget(noControl_);
  layout->addWidget(controls_);
  layout->addWidget(summary_);
  layout->addWidget(scope_);
  layout->addWidget(results_);
  layout->addWidget(notes);
  layout->addStretch(1);
  fillWithScrollArea(this, content);

  connect(bar_, &ComputeBar::computeRequested, this, &AttackView::compute);
  connect(target_, &QComboBox::currentIndexChanged, this, &AttackView::onTargetChanged);
  connect(threshold_, &QDoubleSpinBox::valueChanged, this, [this] {
    if (!analysis_) return;
    showSummary();
    emit figuresChanged();
  });
  connect(setUpButton_, &QPushButton::clicked, this, &AttackView::controlSplitRequested);
  clear();
}

// The worker owns only values; its result is dropped (LatestComputation waits for it).
AttackView::~AttackView() = default;

double AttackView::threshold() const { return threshold_->value(); }

void AttackView::clear() {
  computation_->drop();
  data_.reset();
  const bool had = analysis_ != nullptr;
  analysis_.reset();
  {
    const QSignalBlocker block(target_);
    target_->clear();
  }
  showProblem(tr("No results yet: run a synthesis first."), State::kEmpty);
  setUpButton_->hide();
  bar_->reset();
  if (had) emit figuresChanged();
}

void AttackView::setData(std::shared_ptr<const ReviewData> reviewData) {
  clear();
  if (!reviewData || !reviewData->real) return;
  data_ = std::move(reviewData);
  if (const QString problem = attackRequestProblem(*data_); !problem.isEmpty()) {
    showProblem(problem, State::kNoControl);
    setUpButton_->setVisible(!data_->control);
    return;
  }
  {
    const QSignalBlocker block(target_);
    target_->addItem(tr("(none)"), QString());
    for (const QString& name : attackTargetCandidates(data_->schema)) {
      target_->addItem(name, name);
    }
    target_->setCurrentIndex(std::max(0, target_->findData(defaultAttackTarget(data_->schema))));
  }
  noControl_->hide();
  controls_->show();
  summary_->setText(tr("Not computed yet."));
  summary_->show();
  bar_->setBusy(false);
  bar_->dataChanged();
}

void AttackView::onTargetChanged() {
  if (!data_ || state_ == State::kNoControl) return;
  bar_->inputsChanged();
}

void AttackView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  bar_->tabShown();
}

AttackRequest AttackView::currentRequest() const {
  if (!data_) return AttackRequest{};
  const unsigned threads = static_cast<unsigned>(std::max(1, QThread::idealThreadCount()));
  return attackRequestOf(*data_, target_->currentData().toString(), threads);
}

void AttackView::compute() {
  bar_->beginCompute();
  if (!data_ || state_ == State::kNoControl) return;
  const AttackRequest request = currentRequest();
  computation_->start(request);  // a running one stops first
}

void AttackView::onFinished(const AttackOutcome* outcome) {
  if (outcome == nullptr) {  // cancelled by the user
    state_ = State::kCancelled;
    bar_->showCancelled(analysis_ ? tr("The figures below are those computed before.")
                                  : QString());
    emit computationFinished();
    return;
  }
  apply(*outcome);
  emit computationFinished();
}

void AttackView::apply(const AttackOutcome& outcome) {
  if (!outcome) {
    state_ = State::kFailed;
    bar_->setStatus(tr("The attacks could not be run: %1")
                         .arg(toQString(outcome.error().message)));
    return;
  }
  analysis_ = outcome.value();
  state_ = State::kReady;
  bar_->setStatus(tr("Computed in %1 s.").arg(QString::number(analysis_->seconds, 'f', 1)));
  showAnalysis();
  emit figuresChanged();
}

void AttackView::showProblem(const QString& problem, State state) {
  state_ = state;
  problem_->setText(plain(problem));
  noControl_->show();
  controls_->hide();
  summary_->clear();
  summary_->hide();
  scope_->clear();
  bar_->setStatus(QString());
  results_->hide();
  chart_->clear();
  for (QStandardItemModel* model : {attackModel_, closenessModel_, mlModel_, importanceModel_}) {
    model->clear();
  }
}

void AttackView::showSummary() {
  if (!analysis_) return;
  const VerdictFinding finding = attackFinding(analysis_->report, threshold());
  QString html = QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>")
                     .arg(verdictColor(finding.level).name(),
                          toQString(finding.headline).toHtmlEscaped());
  if (!finding.change.empty()) {
    html += QStringLiteral("<br>%1 %2").arg(tr("What to change:"),
                                            toQString(finding.change).toHtmlEscaped());
  }
  summary_->setText(html);
  summary_->show();
  chart_->setRows(attackRows(analysis_->report), threshold());
}

void AttackView::showAnalysis() {
  const EvaluateReport& r = analysis_->report;
  showSummary();
  scope_->setText(plain(attackScope(r)));

  attackModel_->clear();
  // Rates without their intervals (the chart draws them; each cell's tooltip gives them), so
  // that the table fits beside the Guarantee panel at 1024 pixels.
  attackModel_->setHorizontalHeaderLabels({tr("Attack"), tr("Risk [95% interval]"),
                                           tr("Its rows"), tr("Held out"), tr("Guess"),
                                           tr("Trials")});
  const auto rate = [](const RateEstimate& estimate) {
    QStandardItem* item = cell(formatPercent(estimate.rate, 1), true);
    item->setToolTip(rateWithInterval(estimate));
    return item;
  };
  for (const AttackRow& row : attackRows(r)) {
    QList<QStandardItem*> items = {cell(row.name, false),
                                   cell(riskWithInterval(row.risk), true),
                                   rate(row.risk.train),
                                   rate(row.risk.control),
                                   rate(row.risk.naive),
                                   cell(formatCount(row.trials), true)};
    items.front()->setToolTip(row.explanation);
    items[1]->setForeground(verdictColor(
        !row.risk.attack_beats_naive         ? VerdictLevel::kGood
        : row.risk.risk_interval.low > threshold() ? VerdictLevel::kProblem
        : row.risk.risk > threshold()        ? VerdictLevel::kCaution
                                             : VerdictLevel::kGood));
    attackModel_->appendRow(items);
  }

  const CopyCounts& c = r.copies;
  const DcrReport& d = r.dcr;
  closeness_->setText(plain(closenessSummary(r)));
  closenessModel_->clear();
  closenessModel_->setHorizontalHeaderLabels(
      {QString(), tr("Its rows"), tr("Held out")});
  const auto pair = [this](const QString& what, const QString& train, const QString& control) {
    closenessModel_->appendRow({cell(what, false), cell(train, true), cell(control, true)});
  };
  pair(tr("Synthetic rows equal to one"), formatCount(c.copies_of_train),
       formatCount(c.copies_of_control));
  pair(tr("… to one unique there"), formatCount(c.copies_of_unique_train),
       formatCount(c.copies_of_unique_control));
  pair(tr("Real rows reproduced"), formatCount(c.train_rows_copied),
       formatCount(c.control_rows_copied));
  pair(tr("Median distance to nearest"), score(d.to_train.median), score(d.to_control.median));
  pair(tr("Mean distance to nearest"), score(d.to_train.mean), score(d.to_control.mean));
  pair(tr("Synthetic rows nearer to it"),
       rateWithInterval(d.closer_to_train),
       formatPercent(1 - d.closer_to_train.rate, 1));

  ml_->setText(plain(mlSummary(r)));
  mlModel_->clear();
  importanceModel_->clear();
  if (r.utility) {
    const MlUtilityReport& u = *r.utility;
    mlModel_->setHorizontalHeaderLabels(
        {tr("On held-out rows"), tr("Trained on real"), tr("Trained on synthetic")});
    const auto row = [this](const QString& what, const QString& real, const QString& synthetic) {
      mlModel_->appendRow({cell(what, false), cell(real, true), cell(synthetic, true)});
    };
    if (u.classification) {
      row(tr("Accuracy"), formatPercent(u.real_model.accuracy, 1),
          formatPercent(u.synthetic_model.accuracy, 1));
      row(tr("AUC"), score(u.real_model.auc), score(u.synthetic_model.auc));
    } else {
      row(tr("R²"), score(u.real_model.r2), score(u.synthetic_model.r2));
    }
    row(tr("Training rows"), formatCount(u.real_train_rows), formatCount(u.synthetic_train_rows));
    importanceModel_->setHorizontalHeaderLabels(
        {tr("Feature"), tr("Importance (real)"), tr("Importance (synthetic)")});
    for (const FeatureImportance& f : u.importances) {
      importanceModel_->appendRow({cell(toQString(f.name), false),
                                   cell(formatPercent(f.real, 1), true),
                                   cell(formatPercent(f.synthetic, 1), true)});
    }
  }
  mlView_->setVisible(r.utility.has_value());
  importanceView_->setVisible(r.utility.has_value());
  results_->show();
  for (QTableView* view : {attackView_, closenessView_, mlView_, importanceView_}) {
    view->resizeColumnsToContents();
    fitHeight(view);
  }
}

QString AttackView::summaryText() const { return summary_->text(); }
QString AttackView::problemText() const { return problem_->text(); }

}  // namespace deniable::ui
