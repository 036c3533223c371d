// SPDX-License-Identifier: Apache-2.0
// PrivacyView (Review → Privacy): the whole-release guarantee in numbers and in plain words,
// the other guarantees (each labelled with what it covers), the deniable mode's pass rate,
// warnings, the privacy ledger (every spend: what, mechanism, ε, δ, rows, reference) with its
// total, and where each column's domain came from (public / DP / imported).
#pragma once

#include <memory>

#include <QWidget>

#include "ui/review/privacy_facts.h"
#include "ui/review/review_data.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QStandardItemModel;
class QTableView;
QT_END_NAMESPACE

namespace deniable::ui {

class LedgerModel;

class PrivacyView : public QWidget {
  Q_OBJECT

 public:
  explicit PrivacyView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const ReviewData> data);
  void clear();

  const LedgerModel* ledgerModel() const { return ledgerModel_; }
  const QStandardItemModel* domainModel() const { return domainModel_; }
  const PrivacyFacts& facts() const { return facts_; }
  QString headlineText() const;   // whole-release numbers and statement
  QString guaranteesText() const;
  QString passRateText() const;
  QString warningsText() const;
  QString ledgerTotalText() const;

 private:
  static void fitTableHeight(QTableView* view, int maxRows);

  std::shared_ptr<const ReviewData> data_;
  PrivacyFacts facts_;
  QLabel* headline_;
  QLabel* guarantees_;
  QLabel* passRate_;
  QLabel* warnings_;
  QLabel* ledgerTotal_;
  QLabel* partitions_;
  QTableView* ledgerView_;
  LedgerModel* ledgerModel_;
  QTableView* domainView_;
  QStandardItemModel* domainModel_;
};

}  // namespace deniable::ui
