// SPDX-License-Identifier: Apache-2.0
// Step 5, Review: hosts the ReviewWidget (ui/review/, another module) with the last run's
// ReviewData, and says so plainly when those results are out of date.
#pragma once

#include <QWidget>

namespace deniable::ui {

class MessageBanner;
class ReviewWidget;
class Session;

class ReviewPage : public QWidget {
  Q_OBJECT

 public:
  explicit ReviewPage(Session* session, QWidget* parent = nullptr);
  ReviewWidget* reviewWidget() const { return review_; }

 private:
  void onResultChanged();
  void onStateChanged();

  Session* session_;
  MessageBanner* banner_;
  ReviewWidget* review_;
};

}  // namespace deniable::ui
