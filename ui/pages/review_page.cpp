// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/review_page.h"

#include <QVBoxLayout>

#include "ui/review/attack_view.h"
#include "ui/review/review_widget.h"
#include "ui/review/risk_view.h"
#include "ui/review/verdict_panel.h"
#include "ui/session/session.h"
#include "ui/widgets/message_banner.h"
#include "ui/widgets/page_header.h"

namespace deniable::ui {

ReviewPage::ReviewPage(Session* session, QWidget* parent)
    : QWidget(parent), session_(session), banner_(new MessageBanner(this)),
      verdict_(new VerdictPanel(this)), review_(new ReviewWidget(this)) {
  review_->setToolTip(tr("Real and synthetic data side by side (for your eyes only: this "
                         "comparison uses your real data)"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new PageHeader(Step::kReview, this));
  layout->addWidget(banner_);
  layout->addWidget(verdict_);
  layout->addWidget(review_, 1);
  connect(review_->riskView(), &RiskView::computationFinished, this,
          [this] {
            verdict_->setRisk(review_->riskView()->analysis());
            emit riskAnalysed(shown_, review_->riskView()->analysis());
          });
  connect(review_->attackView(), &AttackView::figuresChanged, this, [this] {
    AttackView* attacks = review_->attackView();
    verdict_->setAttacks(attacks->analysis(), attacks->threshold());
    emit attacksAnalysed(shown_, attacks->analysis(), attacks->threshold());
  });
  connect(review_->attackView(), &AttackView::controlSplitRequested, this,
          &ReviewPage::controlSplitRequested);
  connect(session_, &Session::resultChanged, this, &ReviewPage::onResultChanged);
  connect(session_, &Session::stateChanged, this, &ReviewPage::onStateChanged);
  onResultChanged();
}

void ReviewPage::setActive(bool active) {
  active_ = active;
  if (active_) applyPending();
}

void ReviewPage::onResultChanged() {
  pending_ = true;
  if (active_ || !session_->result()) applyPending();
  onStateChanged();
}

void ReviewPage::applyPending() {
  if (!pending_) return;
  pending_ = false;
  shown_ = session_->result() ? session_->result()->review : nullptr;
  if (session_->result()) {
    review_->setData(session_->result()->review);
    verdict_->setData(session_->result()->review);
  } else {
    review_->clear();
    verdict_->clear();
  }
}

void ReviewPage::onStateChanged() {
  if (!session_->result()) {
    banner_->showMessage(MessageBanner::Kind::kInfo, tr("Run a synthesis first (step 4)."));
  } else if (session_->resultIsStale()) {
    banner_->showMessage(MessageBanner::Kind::kWarning,
                         tr("These results were made with earlier settings. Run again (Ctrl+R) "
                            "to review the current ones."));
  } else {
    banner_->hide();
  }
}

}  // namespace deniable::ui
