// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/pass_rate_grid.h"

#include <algorithm>

#include <QHeaderView>
#include <nlohmann/json.hpp>

#include "ui/text/format.h"

namespace deniable::ui {
namespace {
constexpr int kKRole = Qt::UserRole + 1;
}

PassRateGrid::PassRateGrid(QWidget* parent) : QTableWidget(parent) {
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  setSelectionMode(QAbstractItemView::SingleSelection);
  horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  setToolTip(tr("Estimated share of candidate rows that pass the privacy test, for each k "
                "(columns) and ω (rows). Click a cell to use those values. Computed on your real "
                "data: for your eyes only."));
  connect(this, &QTableWidget::cellClicked, this, [this](int row, int column) {
    const auto omega = parseOmega(verticalHeaderItem(row)->data(Qt::UserRole).toString());
    const QTableWidgetItem* header = horizontalHeaderItem(column);
    if (!omega || header == nullptr) return;
    emit cellChosen(header->data(kKRole).toInt(), omega->min, omega->max);
  });
}

std::optional<OmegaChoice> PassRateGrid::parseOmega(const QString& text) {
  const QStringList parts = text.split(QLatin1Char('-'));
  bool ok_min = false;
  bool ok_max = false;
  const int min = parts.value(0).toInt(&ok_min);
  const int max = parts.size() == 2 ? parts[1].toInt(&ok_max) : min;
  if (!ok_min || (parts.size() == 2 && !ok_max) || parts.size() > 2 || min < 1 || max < min) {
    return std::nullopt;
  }
  return OmegaChoice{min, max};
}

void PassRateGrid::setAdvice(const nlohmann::json& advice) {
  clear();
  nlohmann::json rows = nlohmann::json::array();
  if (advice.contains("sweep") && advice["sweep"].contains("rows") && advice["sweep"]["rows"].is_array()) {
    rows = advice["sweep"]["rows"];
  }
  std::vector<int> ks;
  for (const nlohmann::json& row : rows) {
    if (!row.contains("pass_rate_by_k") || !row["pass_rate_by_k"].is_object()) continue;
    const nlohmann::json& rates = row["pass_rate_by_k"];
    for (const auto& [key, rate] : rates.items()) {
      (void)rate;
      bool ok = false;
      const int value = QString::fromStdString(key).toInt(&ok);
      if (ok && std::find(ks.begin(), ks.end(), value) == ks.end()) ks.push_back(value);
    }
  }
  std::sort(ks.begin(), ks.end());
  setRowCount(static_cast<int>(rows.size()));
  setColumnCount(static_cast<int>(ks.size()));
  for (std::size_t c = 0; c < ks.size(); ++c) {
    auto* header = new QTableWidgetItem(QStringLiteral("k = %1").arg(ks[c]));
    header->setData(kKRole, ks[c]);
    setHorizontalHeaderItem(static_cast<int>(c), header);
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const QString omega = QString::fromStdString(rows[r].value("omega", std::string("?")));
    auto* header = new QTableWidgetItem(QStringLiteral("ω = %1").arg(omega));
    header->setData(Qt::UserRole, omega);  // the bare "5-11" for parseOmega
    setVerticalHeaderItem(static_cast<int>(r), header);
    const nlohmann::json& row = rows[r];
    const nlohmann::json rates =
        row.contains("pass_rate_by_k") ? row["pass_rate_by_k"] : nlohmann::json::object();
    for (std::size_t c = 0; c < ks.size(); ++c) {
      const std::string key = std::to_string(ks[c]);
      auto* item = new QTableWidgetItem(rates.contains(key) ? formatPercent(rates[key].get<double>())
                                                            : QStringLiteral("—"));
      item->setTextAlignment(Qt::AlignCenter);
      if (rates.contains(key)) item->setData(Qt::UserRole, rates[key].get<double>());
      item->setToolTip(tr("k = %1, ω = %2: about %3 of candidates pass")
                           .arg(ks[c])
                           .arg(omega, item->text()));
      setItem(static_cast<int>(r), static_cast<int>(c), item);
    }
  }
}

std::optional<double> PassRateGrid::markCurrent(int k, int omega_min, int omega_max) {
  std::optional<double> rate;
  clearSelection();
  for (int r = 0; r < rowCount(); ++r) {
    const auto omega = parseOmega(verticalHeaderItem(r)->data(Qt::UserRole).toString());
    if (!omega || omega->min != omega_min || omega->max != omega_max) continue;
    for (int c = 0; c < columnCount(); ++c) {
      if (horizontalHeaderItem(c)->data(kKRole).toInt() != k) continue;
      setCurrentCell(r, c);
      const QVariant value = item(r, c)->data(Qt::UserRole);
      if (value.isValid()) rate = value.toDouble();
    }
  }
  return rate;
}

}  // namespace deniable::ui
