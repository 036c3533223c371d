// SPDX-License-Identifier: Apache-2.0
#include "ui/review/privacy_view.h"

#include <algorithm>

#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/review/ledger_model.h"
#include "ui/review/network_facts.h"
#include "ui/review/review_format.h"
#include "ui/review/review_layout.h"

namespace deniable::ui {
namespace {

QLabel* sectionTitle(const QString& text) {
  auto* label = new QLabel(text);
  QFont font = label->font();
  font.setBold(true);
  font.setPointSizeF(font.pointSizeF() * 1.15);
  label->setFont(font);
  label->setContentsMargins(0, 10, 0, 2);
  return label;
}

QLabel* textLabel() {
  auto* label = new QLabel;
  label->setWordWrap(true);
  label->setTextFormat(Qt::RichText);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

}  // namespace

PrivacyView::PrivacyView(QWidget* parent)
    : QWidget(parent),
      headline_(textLabel()),
      guarantees_(textLabel()),
      passRate_(textLabel()),
      warnings_(textLabel()),
      ledgerTotal_(textLabel()),
      partitions_(textLabel()),
      ledgerView_(new QTableView),
      ledgerModel_(new LedgerModel(this)),
      domainView_(new QTableView),
      domainModel_(new QStandardItemModel(this)) {
  headline_->setObjectName(QStringLiteral("guaranteeHeadline"));
  headline_->setStyleSheet(QStringLiteral(
      "#guaranteeHeadline { background: #eef4fb; border: 1px solid #b9cfe8; border-radius: 6px;"
      " padding: 10px; color: #1b2a3a; }"));
  warnings_->setObjectName(QStringLiteral("warnings"));
  warnings_->setStyleSheet(QStringLiteral(
      "#warnings { background: #fff6e5; border: 1px solid #f0c36d; border-radius: 6px;"
      " padding: 8px; color: #4a3500; }"));

  ledgerView_->setModel(ledgerModel_);
  domainView_->setModel(domainModel_);
  for (QTableView* view : {ledgerView_, domainView_}) setUpFactTable(view);
  ledgerView_->setToolTip(tr("Every differentially private computation on the real data, in the "
                             "order it ran. Hover ε or δ for the per-invocation values and the "
                             "composition used."));
  domainView_->setToolTip(tr("Where the categories or bounds of each column came from: declared "
                             "public by you, computed by a DP mechanism (in the ledger), or "
                             "imported from a description file."));

  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->addWidget(headline_);
  layout->addWidget(sectionTitle(tr("Guarantees")));
  layout->addWidget(guarantees_);
  layout->addWidget(passRate_);
  layout->addWidget(warnings_);
  layout->addWidget(sectionTitle(tr("Privacy ledger")));
  layout->addWidget(ledgerView_);
  layout->addWidget(ledgerTotal_);
  layout->addWidget(partitions_);
  layout->addWidget(sectionTitle(tr("Domains and their provenance")));
  layout->addWidget(domainView_);
  layout->addStretch(1);

  fillWithScrollArea(this, content);
  clear();
}

QString PrivacyView::headlineText() const { return headline_->text(); }
QString PrivacyView::guaranteesText() const { return guarantees_->text(); }
QString PrivacyView::passRateText() const { return passRate_->text(); }
QString PrivacyView::warningsText() const { return warnings_->text(); }
QString PrivacyView::ledgerTotalText() const { return ledgerTotal_->text(); }

void PrivacyView::fitTableHeight(QTableView* view, int maxRows) {
  const int rows = std::min(view->model()->rowCount(), maxRows);
  const int rowHeight = view->verticalHeader()->defaultSectionSize();
  const int height = view->horizontalHeader()->sizeHint().height() + rows * rowHeight +
                     2 * view->frameWidth() + 4;
  view->setMinimumHeight(height);  // more rows than maxRows scroll inside the table
  view->setMaximumHeight(height);
}

void PrivacyView::clear() {
  data_.reset();
  facts_ = PrivacyFacts{};
  headline_->setText(tr("No results yet: run a synthesis first."));
  for (QLabel* label : {guarantees_, passRate_, ledgerTotal_, partitions_, warnings_}) {
    label->clear();
  }
  warnings_->hide();
  passRate_->hide();
  ledgerModel_->setLedger({}, {});
  domainModel_->clear();
}

void PrivacyView::setData(std::shared_ptr<const ReviewData> reviewData) {
  clear();
  if (!reviewData) return;
  data_ = std::move(reviewData);
  facts_ = ExtractPrivacyFacts(*data_);

  QString headline = tr("<span style='font-size:large'><b>Whole release: %1</b></span>")
                         .arg(formatCost(facts_.release).toHtmlEscaped());
  headline += QStringLiteral("<br>") + facts_.statement.toHtmlEscaped();
  headline_->setText(headline);

  QString lines = QStringLiteral("<table cellspacing='0' cellpadding='3'>");
  for (const GuaranteeLine& line : facts_.guarantees) {
    lines += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td><td style='color:#555'>%3</td></tr>")
                 .arg(line.label.toHtmlEscaped(), line.value.toHtmlEscaped(),
                      line.note.toHtmlEscaped());
  }
  guarantees_->setText(lines + QStringLiteral("</table>"));

  if (facts_.deniable) {
    passRate_->setText(
        facts_.candidates > 0
            ? tr("<b>Pass rate</b>: %1 of %2 candidates passed the privacy test (%3).")
                  .arg(formatCount(facts_.passed), formatCount(facts_.candidates),
                       formatPercent(static_cast<double>(facts_.passed) /
                                     static_cast<double>(facts_.candidates)))
            : tr("<b>Pass rate</b>: the run did not report its candidates."));
    passRate_->show();
  }
  if (!facts_.warnings.empty()) {
    QString text;
    for (const ReviewWarning& warning : facts_.warnings) {
      text += (text.isEmpty() ? QString() : QStringLiteral("<br>")) + QStringLiteral("⚠ ") +
              warning.text.toHtmlEscaped();
    }
    warnings_->setText(text);
    warnings_->show();
  }

  if (facts_.ledger_ok) {
    ledgerModel_->setLedger(facts_.entries, facts_.partitions,
                            AttributeNames(data_->description));
    ledgerTotal_->setText(tr("<b>Total of the ledger: %1</b> (budget %2; sequential composition "
                             "within a set of rows, parallel composition across disjoint sets)")
                              .arg(formatCost(facts_.ledger_total).toHtmlEscaped(),
                                   formatCost(facts_.budget).toHtmlEscaped()));
    QStringList partitions;
    for (const auto& partition : facts_.partitions) {
      partitions << QStringLiteral("<b>%1</b>%2: %3")
                        .arg(toQString(partition.name).toHtmlEscaped(),
                             partition.parent.empty()
                                 ? QString()
                                 : tr(" (part of %1)").arg(toQString(partition.parent).toHtmlEscaped()),
                             toQString(partition.description).toHtmlEscaped());
    }
    partitions_->setText(tr("Rows: ") + partitions.join(QStringLiteral("; ")));
  } else {
    ledgerTotal_->setText(tr("The ledger could not be read: %1").arg(facts_.ledger_error.toHtmlEscaped()));
  }
  fitTableHeight(ledgerView_, 14);

  domainModel_->setHorizontalHeaderLabels(
      {tr("Column"), tr("Type"), tr("Domain"), tr("Source"), tr("Provenance")});
  for (const DomainProvenanceRow& row : DomainProvenance(data_->description)) {
    QList<QStandardItem*> items;
    for (const QString& text : {row.column, row.type, row.domain, row.source, row.provenance}) {
      auto* item = new QStandardItem(text);
      item->setToolTip(text);
      items << item;
    }
    domainModel_->appendRow(items);
  }
  fitTableHeight(domainView_, 16);
}

}  // namespace deniable::ui
