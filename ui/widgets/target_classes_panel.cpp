// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/target_classes_panel.h"

#include <QApplication>
#include <QHeaderView>
#include <QLabel>
#include <QPalette>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "engine/schema/column_review.h"
#include "ui/text/format.h"

namespace deniable::ui {

TargetClassesPanel::TargetClassesPanel(QWidget* parent)
    : QWidget(parent), note_(new QLabel(this)), classes_(new QTreeWidget(this)),
      declare_(new QPushButton(this)) {
  note_->setWordWrap(true);
  classes_->setHeaderLabels({tr("Class"), tr("Rows"), tr("Share")});
  classes_->setRootIsDecorated(false);
  classes_->setMaximumHeight(120);
  classes_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  classes_->header()->setStretchLastSection(false);
  classes_->setToolTip(tr("The classes in your data with their row counts (for your eyes "
                          "only). A class under 1% of the rows is rare: a private model holds "
                          "little of it."));
  declare_->setToolTip(tr("Declare exactly these classes public and make this column the "
                          "target: no class can then vanish from the release"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(note_);
  layout->addWidget(classes_);
  layout->addWidget(declare_, 0, Qt::AlignLeft);
  connect(declare_, &QPushButton::clicked, this, &TargetClassesPanel::declareRequested);
}

void TargetClassesPanel::setClasses(const QString& column, const std::vector<CountedValue>& classes,
                                    bool is_target) {
  classes_->clear();
  std::uint64_t labelled = 0;
  for (const CountedValue& value : classes) labelled += value.count;
  int rare = 0;
  const QColor warning = QApplication::palette().color(QPalette::Link);
  for (const CountedValue& value : classes) {
    auto* item = new QTreeWidgetItem(classes_);
    const double share = labelled == 0 ? 0.0 : static_cast<double>(value.count) / labelled;
    const bool is_rare = share < kRareClassShare;
    rare += is_rare ? 1 : 0;
    item->setText(0, (is_rare ? QStringLiteral("⚠ ") : QString()) + QString::fromStdString(value.text));
    item->setText(1, formatCount(value.count));
    item->setText(2, formatPercent(share));
    item->setTextAlignment(1, Qt::AlignRight);
    item->setTextAlignment(2, Qt::AlignRight);
    if (is_rare) {
      for (int c = 0; c < 3; ++c) item->setForeground(c, warning);
    }
  }
  QString text = is_target
                     ? tr("‘%1’ is the release's target; its %2 are declared public.")
                           .arg(column, countOf(classes.size(), tr("class"), tr("classes")))
                     : tr("A target's class list must be public, so that no class can vanish "
                          "from the release. ‘%1’ has %2 in your data. Declare them only if "
                          "they are all the classes there can be (a codebook, not a reading of "
                          "your data).")
                           .arg(column, countOf(classes.size(), tr("class"), tr("classes")));
  if (rare > 0) {
    text += QStringLiteral(" ⚠ ") +
            (rare == 1 ? tr("1 class holds under 1% of the rows: a private model holds little of it.")
                       : tr("%1 classes hold under 1% of the rows each: a private model holds "
                            "little of them.")
                             .arg(rare));
  }
  note_->setText(text);
  declare_->setText(tr("Declare these %1 public and make ‘%2’ the target")
                        .arg(countOf(classes.size(), tr("class"), tr("classes")), column));
  declare_->setVisible(!is_target);
  declare_->setEnabled(!is_target && !classes.empty());
}

}  // namespace deniable::ui
