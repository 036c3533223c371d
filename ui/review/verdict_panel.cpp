// SPDX-License-Identifier: Apache-2.0
#include "ui/review/verdict_panel.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>

#include "engine/core/progress.h"
#include "ui/review/attack_facts.h"
#include "ui/review/risk_facts.h"
#include "ui/review/verdict_facts.h"
#include "ui/tasks/run_in_background.h"

namespace deniable::ui {
namespace {

QString levelMark(VerdictLevel level) {
  switch (level) {
    case VerdictLevel::kGood: return QStringLiteral("✔");
    case VerdictLevel::kCaution: return QStringLiteral("▲");
    case VerdictLevel::kProblem: return QStringLiteral("✖");
  }
  return QString();
}

QString topicName(VerdictTopic topic) {
  switch (topic) {
    case VerdictTopic::kUtility: return VerdictPanel::tr("Utility");
    case VerdictTopic::kGuarantee: return VerdictPanel::tr("Guarantee");
    case VerdictTopic::kRisk: return VerdictPanel::tr("Measured risk");
    case VerdictTopic::kAttacks: return VerdictPanel::tr("Attacks");
  }
  return QString();
}

}  // namespace

VerdictPanel::VerdictPanel(QWidget* parent)
    : QFrame(parent), answer_(new QLabel(this)), toggle_(new QToolButton(this)),
      details_(new QWidget(this)), findings_(new QVBoxLayout(details_)) {
  setObjectName(QStringLiteral("verdictPanel"));
  setFrameShape(QFrame::StyledPanel);
  pool_.setMaxThreadCount(1);
  answer_->setObjectName(QStringLiteral("verdictAnswer"));
  answer_->setWordWrap(true);
  answer_->setTextFormat(Qt::RichText);
  answer_->setToolTip(tr("Is this release fit to share? The worst of the findings below "
                         "(for your eyes only: it uses your real data)"));
  toggle_->setText(tr("Details"));
  toggle_->setCheckable(true);
  toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toggle_->setArrowType(Qt::RightArrow);
  toggle_->setToolTip(tr("Show or hide each finding with its reason and what to change"));
  findings_->setContentsMargins(0, 0, 0, 0);
  findings_->setSpacing(4);
  details_->setVisible(false);

  auto* top = new QHBoxLayout;
  top->addWidget(answer_, 1);
  top->addWidget(toggle_, 0, Qt::AlignTop);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(8, 4, 8, 4);
  layout->setSpacing(4);
  layout->addLayout(top);
  layout->addWidget(details_);
  connect(toggle_, &QToolButton::toggled, this, &VerdictPanel::setExpanded);
  connect(&watcher_, &QFutureWatcherBase::finished, this, &VerdictPanel::onFinished);
  refresh();
}

VerdictPanel::~VerdictPanel() { watcher_.waitForFinished(); }

void VerdictPanel::setData(std::shared_ptr<const ReviewData> reviewData) {
  data_ = std::move(reviewData);
  risk_.reset();
  attacks_.reset();
  baselines_.reset();
  refresh();
  if (!data_) return;
  if (synchronous_) {
    NullProgress progress;
    if (auto baselines = computeBaselines(*data_, progress)) baselines_ = *baselines;
    refresh();
    return;
  }
  watcher_.waitForFinished();  // a previous run's baselines (a fraction of a second)
  const std::shared_ptr<const ReviewData> shared = data_;
  watcher_.setFuture(runInBackground<Outcome>(
      &pool_, nullptr, [shared](Progress& progress) { return computeBaselines(*shared, progress); }));
}

void VerdictPanel::clear() { setData(nullptr); }

void VerdictPanel::setRisk(std::shared_ptr<const RiskAnalysis> risk) {
  risk_ = std::move(risk);
  refresh();
}

void VerdictPanel::setAttacks(std::shared_ptr<const AttackAnalysis> attacks, double threshold) {
  attacks_ = std::move(attacks);
  attackThreshold_ = threshold;
  refresh();
}

void VerdictPanel::waitForWorker() {
  watcher_.waitForFinished();
  QCoreApplication::processEvents();
}

void VerdictPanel::onFinished() {
  const QFuture<Outcome> future = watcher_.future();
  if (future.isCanceled() || future.resultCount() == 0) return;
  const Outcome outcome = future.result();
  if (outcome) baselines_ = *outcome;  // else: no utility finding (e.g. one column)
  refresh();
}

QString VerdictPanel::answerText() const { return answer_->text(); }

bool VerdictPanel::expanded() const { return details_->isVisibleTo(this); }

void VerdictPanel::setExpanded(bool expanded) {
  details_->setVisible(expanded);
  toggle_->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
  if (toggle_->isChecked() != expanded) toggle_->setChecked(expanded);
}

void VerdictPanel::refresh() {
  while (QLayoutItem* item = findings_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  if (!data_) {
    verdict_ = Verdict{};
    answer_->setText(tr("No verdict yet: run a synthesis first."));
    toggle_->setEnabled(false);
    emit verdictChanged();
    return;
  }
  VerdictInputs inputs =
      verdictInputsOf(*data_, baselines_ ? &*baselines_ : nullptr, risk_.get());
  if (attacks_) inputs.attacks = VerdictAttacksOf(attacks_->report, attackThreshold_);
  verdict_ = ComputeVerdict(inputs);
  toggle_->setEnabled(true);
  const VerdictFinding* worst = &verdict_.findings.front();
  for (const VerdictFinding& f : verdict_.findings) {  // on a tie the guarantee comes first
    if (f.level > worst->level ||
        (f.level == worst->level && f.topic == VerdictTopic::kGuarantee &&
         worst->topic != VerdictTopic::kGuarantee)) {
      worst = &f;
    }
  }
  QString line = QStringLiteral("<span style=\"color:%1; font-weight:bold; font-size:large\">"
                                "%2 %3</span>&nbsp;&nbsp;%4")
                     .arg(verdictColor(verdict_.overall).name(), levelMark(verdict_.overall),
                          overallAnswer(verdict_.overall),
                          QString::fromStdString(worst->headline).toHtmlEscaped());
  if (!baselines_ && data_->metrics.mean_pair_tvd) {
    line += QStringLiteral(" <i>%1</i>").arg(tr("(utility being measured…)"));
  }
  answer_->setText(line);
  for (const VerdictFinding& f : verdict_.findings) {
    auto* label = new QLabel(details_);
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QString html = QStringLiteral("<span style=\"color:%1\">%2</span> <b>%3: %4</b><br>"
                                  "<small>%5")
                       .arg(verdictColor(f.level).name(), levelMark(f.level), topicName(f.topic),
                            QString::fromStdString(f.headline).toHtmlEscaped(),
                            QString::fromStdString(f.reason).toHtmlEscaped());
    if (!f.change.empty()) {
      html += QStringLiteral("<br><b>%1</b> %2")
                  .arg(tr("What to change:"), QString::fromStdString(f.change).toHtmlEscaped());
    }
    html += QStringLiteral("</small>");
    label->setText(html);
    findings_->addWidget(label);
  }
  emit verdictChanged();
}

}  // namespace deniable::ui
