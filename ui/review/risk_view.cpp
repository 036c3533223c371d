// SPDX-License-Identifier: Apache-2.0
#include "ui/review/risk_view.h"

#include <algorithm>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/review/compute_bar.h"
#include "ui/review/review_format.h"
#include "ui/review/review_layout.h"
#include "ui/review/risk_chart.h"

namespace deniable::ui {
namespace {

QDoubleSpinBox* spinBox(double low, double high, int decimals, double step, double value) {
  auto* box = new QDoubleSpinBox;
  box->setRange(low, high);
  box->setDecimals(decimals);
  box->setSingleStep(step);
  box->setValue(value);
  box->setKeyboardTracking(false);  // typing "0.05" asks for one computation, not three
  return box;
}

QString plain(const QString& text) { return text.toHtmlEscaped(); }

}  // namespace

RiskView::RiskView(QWidget* parent)
    : QWidget(parent),
      ownerNote_(ownerOnlyNote(tr("<b>For your eyes only.</b> These figures are computed from "
                                  "your real data: do not publish them."))),
      sensitive_(new QComboBox),
      quasi_(new QListWidget),
      epsilon_(spinBox(0.001, 1000, 3, 0.1, 1)),
      runEpsilon_(new QLabel),
      maxRelative_(spinBox(1, 1000, 2, 1, 10)),
      maxAbsolute_(spinBox(0.001, 1, 3, 0.01, 0.1)),
      maxRelativeAbove_(spinBox(1, 100, 3, 0.05, 1.05)),
      verdict_(wrappedLabel(QStringLiteral("riskVerdict"))),
      scope_(wrappedLabel(QStringLiteral("riskScope"))),
      results_(new QWidget),
      chart_(new RiskChartView),
      worstView_(new QTableView),
      worstModel_(new QStandardItemModel(this)) {
  setUpComputation(
      this, tr("Compute again with these settings"), QStringLiteral("riskStatus"), computeRisk,
      tr("Computing the risk of every record…"), [this] { state_ = State::kComputing; },
      [this](const RiskOutcome* outcome) { onFinished(outcome); });
  bar_->setCanCompute([this] { return data_ != nullptr; });
  styleNote(verdict_, NoteStyle::kResult);
  styleNote(scope_, NoteStyle::kScope);

  sensitive_->setToolTip(tr("The column an intruder would like to learn about someone. Preset "
                            "from the role \"sensitive\" (step 2)."));
  sensitive_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  sensitive_->setMinimumContentsLength(14);
  quasi_->setToolTip(tr("What an intruder may already know about a person (age, sex, zip "
                        "code). Records with the same values form a cell; the release of the "
                        "sensitive values is analysed cell by cell. Preset from the role "
                        "\"quasi-identifier\"."));
  quasi_->setFixedHeight(quasi_->fontMetrics().height() * 6 + 8);
  quasi_->setMinimumWidth(120);
  epsilon_->setStepType(QAbstractSpinBox::AdaptiveDecimalStepType);
  epsilon_->setToolTip(tr("The ε of the synthesizer whose risk is shown (the plot, the table). "
                          "The recommendation tests 0.01 to 1000 and this one."));
  maxRelative_->setToolTip(tr("a: the largest relative risk RR accepted while R is at most b"));
  maxAbsolute_->setToolTip(tr("b: up to this absolute risk R, RR may reach a"));
  maxRelativeAbove_->setToolTip(tr("c: above R = b, the largest RR accepted (the intruder's "
                                   "prior, not the release, explains a high R)"));

  auto* form = new QGridLayout;
  form->addWidget(new QLabel(tr("Sensitive attribute")), 0, 0);
  form->addWidget(sensitive_, 0, 1, 1, 4);
  form->addWidget(new QLabel(tr("ε")), 1, 0);
  form->addWidget(epsilon_, 1, 1);
  form->addWidget(runEpsilon_, 1, 2, 1, 3);
  form->addWidget(new QLabel(tr("Acceptable")), 2, 0);
  form->addWidget(new QLabel(tr("RR ≤")), 2, 1, Qt::AlignRight);
  form->addWidget(maxRelative_, 2, 2);
  form->addWidget(new QLabel(tr("while R ≤")), 2, 3);
  form->addWidget(maxAbsolute_, 2, 4);
  // The third bound on a row of its own, under the first: the form fits the Review page of a
  // 1024-pixel window beside the quasi-identifiers.
  form->addWidget(new QLabel(tr("above, RR ≤")), 3, 1, Qt::AlignRight);
  form->addWidget(maxRelativeAbove_, 3, 2);
  form->setColumnStretch(5, 1);
  auto* quasiBox = new QVBoxLayout;
  auto* quasiTitle = new QLabel(tr("Quasi-identifiers (cells)"));
  quasiTitle->setWordWrap(true);
  quasiBox->addWidget(quasiTitle);
  quasiBox->addWidget(quasi_);
  auto* controls = new QHBoxLayout;
  controls->addLayout(form, 1);
  controls->addLayout(quasiBox);

  chart_->setMinimumHeight(420);
  worstView_->setModel(worstModel_);
  setUpFactTable(worstView_);
  worstView_->setMinimumHeight(worstView_->verticalHeader()->defaultSectionSize() * 9);
  worstView_->setToolTip(tr("The (cell, value) groups at this ε, outside the region first, then "
                            "by their largest RR over the priors"));
  auto* worstTitle = new QLabel(tr("<b>Riskiest records</b> (grouped by cell and value)"));

  auto* notes = wrappedLabel(QStringLiteral("riskNotes"));
  styleNote(notes, NoteStyle::kScope);
  notes->setText(tr(
      "How to read this (McClure &amp; Reiter 2012, §4): the risk is that of one synthesizer of "
      "the sensitive attribute alone — in each cell its values are drawn from the Dirichlet "
      "posterior with α = 1/(e<sup>ε/n</sup> − 1), ε-DP for each record's value — a yardstick "
      "for choosing ε, not a measurement of this run's synthetic rows. The intruder knows every "
      "other record and the cells, and believes beforehand, with probability w (the prior), "
      "that the record holds its true value; R is what the release makes them believe (at its "
      "95 % quantile), RR = R ÷ w. Each line is a record (records with the same likelihood "
      "ratio share one) as w runs from 0.001 to 0.999; a record is inside when every w keeps it "
      "in the green region."));

  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->addWidget(ownerNote_);
  layout->addLayout(controls);
  layout->addWidget(bar_);
  layout->addWidget(verdict_);
  layout->addWidget(scope_);
  // The plot and the table, hidden while there are no figures.
  auto* resultsLayout = new QVBoxLayout(results_);
  resultsLayout->setContentsMargins(0, 0, 0, 0);
  resultsLayout->addWidget(chart_);
  resultsLayout->addWidget(worstTitle);
  resultsLayout->addWidget(worstView_);
  layout->addWidget(results_);
  layout->addWidget(notes);
  layout->addStretch(1);
  fillWithScrollArea(this, content);

  connect(bar_, &ComputeBar::computeRequested, this, &RiskView::compute);
  connect(sensitive_, &QComboBox::currentIndexChanged, this, &RiskView::onSensitiveChanged);
  connect(quasi_, &QListWidget::itemChanged, this, &RiskView::onInputsChanged);
  for (QDoubleSpinBox* box : {epsilon_, maxRelative_, maxAbsolute_, maxRelativeAbove_}) {
    connect(box, &QDoubleSpinBox::valueChanged, this, &RiskView::onInputsChanged);
  }
  clear();
}

// The worker owns only values (the shared table, the options); its result is dropped
// (LatestComputation waits for it).
RiskView::~RiskView() = default;

void RiskView::clear() {
  computation_->drop();
  data_.reset();
  analysis_.reset();
  bar_->reset();
  state_ = State::kEmpty;
  const QSignalBlocker blockSensitive(sensitive_);
  const QSignalBlocker blockQuasi(quasi_);
  sensitive_->clear();
  quasi_->clear();
  runEpsilon_->clear();
  verdict_->setText(tr("No results yet: run a synthesis first."));
  scope_->clear();
  worstModel_->clear();
  chart_->showMessage(QString());
  results_->hide();
}

void RiskView::setData(std::shared_ptr<const ReviewData> reviewData) {
  clear();
  if (!reviewData || !reviewData->real) return;
  data_ = std::move(reviewData);
  const RiskColumns columns = riskColumnsOf(data_->schema);
  {
    const QSignalBlocker blockSensitive(sensitive_);
    const QSignalBlocker blockQuasi(quasi_);
    const QSignalBlocker blockEpsilon(epsilon_);
    sensitive_->addItem(tr("(choose)"), QString());
    for (const QString& name : columns.candidates) sensitive_->addItem(name, name);
    sensitive_->setCurrentIndex(std::max(0, sensitive_->findData(columns.sensitive)));
    for (const QString& name : columns.candidates) {
      auto* item = new QListWidgetItem(name, quasi_);
      item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
      item->setCheckState(columns.quasi.contains(name) ? Qt::Checked : Qt::Unchecked);
    }
    const double runEpsilon = data_->settings.epsilon;
    epsilon_->setValue(std::clamp(runEpsilon, epsilon_->minimum(), epsilon_->maximum()));
    runEpsilon_->setText(tr("(your run: ε = %1)").arg(formatEpsilon(runEpsilon)));
  }
  onSensitiveChanged();  // disables the sensitive column among the quasi-identifiers
  bar_->setBusy(false);
  verdict_->setText(tr("Not computed yet."));
  bar_->dataChanged();
}

void RiskView::onSensitiveChanged() {
  const QString sensitive = sensitive_->currentData().toString();
  {
    const QSignalBlocker block(quasi_);
    for (int i = 0; i < quasi_->count(); ++i) {
      QListWidgetItem* item = quasi_->item(i);
      const bool isSensitive = item->text() == sensitive;
      item->setFlags(isSensitive ? Qt::ItemIsUserCheckable
                                 : Qt::ItemIsUserCheckable | Qt::ItemIsEnabled);
      if (isSensitive) item->setCheckState(Qt::Unchecked);
    }
  }
  onInputsChanged();
}

void RiskView::onInputsChanged() {
  if (!data_) return;
  bar_->inputsChanged();
}

void RiskView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  bar_->tabShown();
}

RiskRequest RiskView::currentRequest() const {
  RiskRequest request;
  if (!data_) return request;
  request.table = data_->real;
  QStringList quasi;
  for (int i = 0; i < quasi_->count(); ++i) {
    if (quasi_->item(i)->checkState() == Qt::Checked) quasi << quasi_->item(i)->text();
  }
  request.epsilon = epsilon_->value();
  request.options = riskOptions(sensitive_->currentData().toString(), quasi, request.epsilon,
                                maxRelative_->value(), maxAbsolute_->value(),
                                maxRelativeAbove_->value());
  return request;
}

void RiskView::compute() {
  bar_->beginCompute();
  if (!data_) return;
  const RiskRequest request = currentRequest();
  if (const QString problem = riskRequestProblem(*request.table, request.options);
      !problem.isEmpty()) {
    computation_->drop();
    showProblem(problem);
    return;
  }
  computation_->start(request);  // a running one stops first
}

void RiskView::onFinished(const RiskOutcome* outcome) {
  if (outcome == nullptr) {  // cancelled by the user
    state_ = State::kCancelled;
    bar_->showCancelled(analysis_ ? tr("The figures below are still those computed before, "
                                       "with the settings listed under the verdict.")
                                  : QString());
    emit computationFinished();
    return;
  }
  apply(*outcome);
  emit computationFinished();
}

void RiskView::apply(const RiskOutcome& outcome) {
  if (!outcome) {
    showProblem(tr("The risk could not be computed: %1")
                    .arg(toQString(outcome.error().message)));
    state_ = State::kFailed;
    return;
  }
  analysis_ = outcome.value();
  state_ = State::kReady;
  bar_->setStatus(tr("Computed in %1 s.").arg(QString::number(analysis_->seconds, 'f', 2)));
  showAnalysis();
}

void RiskView::showProblem(const QString& problem) {
  analysis_.reset();
  state_ = State::kNeedsInput;
  verdict_->setText(plain(problem));
  scope_->clear();
  bar_->setStatus(QString());
  worstModel_->clear();
  chart_->showMessage(QString());
  results_->hide();
}

void RiskView::showAnalysis() {
  const RiskAnalysis& a = *analysis_;
  verdict_->setText(plain(riskVerdict(a, data_ ? std::optional(data_->settings.epsilon)
                                               : std::nullopt)));
  scope_->setText(plain(riskScope(a)));
  chart_->setAnalysis(a);
  results_->show();
  worstModel_->clear();
  worstModel_->setHorizontalHeaderLabels(
      {tr("Cell (quasi-identifiers)"), toQString(a.options.sensitive), tr("Records"),
       tr("Cell size"), tr("Highest RR"), tr("R there"), tr("At prior w"), tr("Region")});
  for (const RiskGroupRow& row : worstGroups(a, kWorstRows)) {
    QList<QStandardItem*> items;
    auto text = [&items](const QString& value, bool number) {
      auto* item = new QStandardItem(value);
      item->setToolTip(value);
      if (number) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      items << item;
    };
    text(row.cell, false);
    text(row.value, false);
    text(formatCount(static_cast<std::uint64_t>(row.records)), true);
    text(formatCount(static_cast<std::uint64_t>(row.cellRecords)), true);
    text(QString::number(row.maxRelative, 'g', 4), true);
    text(QString::number(row.absoluteAtWorst, 'g', 3), true);
    text(QString::number(row.worstPrior, 'g', 3), true);
    text(row.inside ? tr("inside") : tr("outside"), false);
    if (!row.inside) {
      for (QStandardItem* item : items) item->setForeground(QColor(164, 0, 0));
    }
    worstModel_->appendRow(items);
  }
}

QString RiskView::verdictText() const { return verdict_->text(); }
QString RiskView::scopeText() const { return scope_->text(); }

}  // namespace deniable::ui
