// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/vocabulary_picker.h"

#include <QAbstractItemView>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include "ui/text/format.h"

namespace deniable::ui {
namespace {

constexpr int kIdRole = Qt::UserRole;
constexpr int kCaseRole = Qt::UserRole + 1;
constexpr int kMatchRole = Qt::UserRole + 2;  // index into matches_, -1 for a plain entry

QString caseSuffix(LetterCase letter_case) {
  return letter_case == LetterCase::kAsListed
             ? QString()
             : QStringLiteral(", %1").arg(QString::fromUtf8(LetterCaseName(letter_case)));
}

}  // namespace

VocabularyPicker::VocabularyPicker(QWidget* parent)
    : QWidget(parent), combo_(new QComboBox(this)), declare_(new QPushButton(tr("Declare"), this)),
      detail_(new QLabel(this)) {
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(16);
  combo_->setToolTip(tr("Lists anybody can look up (US states, ISO countries and currencies, "
                        "months, booleans, grades …). The ones marked ✓ hold this column's "
                        "values. Declaring one makes its whole list public: no ε is spent on "
                        "this column's categories."));
  combo_->view()->setToolTip(combo_->toolTip());  // its popup list (separators make one early)
  declare_->setToolTip(tr("Declare the chosen vocabulary as this column's public categories"));
  detail_->setWordWrap(true);
  detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* row = new QHBoxLayout;
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(combo_, 1);
  row->addWidget(declare_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(row);
  layout->addWidget(detail_);
  connect(combo_, &QComboBox::currentIndexChanged, this, &VocabularyPicker::showDetail);
  connect(declare_, &QPushButton::clicked, this, [this] {
    const QString id = combo_->currentData(kIdRole).toString();
    if (!id.isEmpty()) emit declareRequested(id, combo_->currentData(kCaseRole).toInt());
  });
}

void VocabularyPicker::setColumn(const ColumnSchema& column,
                                 const std::vector<VocabularyMatch>& suggestions) {
  matches_ = suggestions;
  suggestions_ = static_cast<int>(suggestions.size());
  const QSignalBlocker block(combo_);
  combo_->clear();
  for (std::size_t i = 0; i < matches_.size(); ++i) {
    const VocabularyMatch& match = matches_[i];
    combo_->addItem(QStringLiteral("✓ %1 (%2%3)")
                        .arg(QString::fromStdString(match.vocabulary->title),
                             tr("%1 of %2 seen").arg(match.observed_entries).arg(match.vocabulary->entries.size()),
                             caseSuffix(match.letter_case)));
    const int index = combo_->count() - 1;
    combo_->setItemData(index, QString::fromStdString(match.vocabulary->id), kIdRole);
    combo_->setItemData(index, static_cast<int>(match.letter_case), kCaseRole);
    combo_->setItemData(index, static_cast<int>(i), kMatchRole);
  }
  if (matches_.empty()) {
    combo_->addItem(tr("Choose a vocabulary…"));  // no suggestion: nothing preselected
    combo_->setItemData(0, -1, kMatchRole);
  }
  combo_->insertSeparator(combo_->count());
  for (const Vocabulary& vocabulary : PublicVocabularies()) {
    combo_->addItem(tr("%1 (%2 entries)")
                        .arg(QString::fromStdString(vocabulary.title))
                        .arg(vocabulary.entries.size()));
    const int index = combo_->count() - 1;
    combo_->setItemData(index, QString::fromStdString(vocabulary.id), kIdRole);
    combo_->setItemData(index, static_cast<int>(LetterCase::kAsListed), kCaseRole);
    combo_->setItemData(index, -1, kMatchRole);
  }
  // A declared vocabulary is preselected; otherwise the best suggestion.
  int current = 0;
  if (!column.public_vocabulary.empty()) {
    for (int i = 0; i < combo_->count(); ++i) {
      if (combo_->itemData(i, kIdRole).toString().toStdString() == column.public_vocabulary &&
          combo_->itemData(i, kCaseRole).toInt() == static_cast<int>(column.public_vocabulary_case)) {
        current = i;
        break;
      }
    }
  }
  combo_->setCurrentIndex(current);
  // Declaring a vocabulary also makes the column categorical (the page's edit says so).
  const bool usable = column.is_modelled() &&
                      (column.type == DataType::kString || column.type == DataType::kInteger);
  combo_->setEnabled(usable);
  declare_->setEnabled(usable);
  if (!column.public_vocabulary.empty()) {
    const Vocabulary* declared = FindVocabulary(column.public_vocabulary);
    detail_->setText(tr("Declared: ‘%1’ (%2 entries%3). Every entry is a public category.")
                         .arg(QString::fromStdString(column.public_vocabulary))
                         .arg(declared ? declared->entries.size() : 0)
                         .arg(caseSuffix(column.public_vocabulary_case)));
    return;
  }
  if (!usable) {
    detail_->setText(column.is_modelled() ? tr("Only for String and Integer columns.") : QString());
    return;
  }
  showDetail();
}

void VocabularyPicker::showDetail() {
  declare_->setEnabled(combo_->isEnabled() && !combo_->currentData(kIdRole).toString().isEmpty());
  const int index = combo_->currentData(kMatchRole).isValid() ? combo_->currentData(kMatchRole).toInt() : -1;
  if (index < 0 || index >= static_cast<int>(matches_.size())) {
    detail_->setText(suggestions_ == 0 ? tr("No built-in vocabulary holds this column's values.")
                                       : QString());
    return;
  }
  const VocabularyMatch& match = matches_[static_cast<std::size_t>(index)];
  if (match.outside_values.empty()) {
    detail_->setText(tr("Holds every value of this column (%1). Declare it only if the column "
                        "can take any of its entries.")
                         .arg(countOf(match.matched_cells, tr("cell"), tr("cells"))));
    return;
  }
  QStringList outside;
  for (const auto& [text, count] : match.outside_values) {
    outside << QStringLiteral("‘%1’ (%2)").arg(QString::fromStdString(text), formatCount(count));
  }
  detail_->setText(tr("Outside it (read as missing if you declare it): %1.").arg(outside.join(QStringLiteral(", "))));
}

}  // namespace deniable::ui
