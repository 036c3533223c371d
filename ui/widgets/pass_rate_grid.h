// SPDX-License-Identifier: Apache-2.0
// The deniable mode's pass-rate grid (the paper's Figure 6): the engine advisor's estimated
// share of candidates that pass the privacy test, for each k (columns) and ω setting (rows).
// Clicking a cell picks that k and ω. The numbers come from the real data: for the owner's eyes
// only (the page says so).
#pragma once

#include <optional>

#include <QTableWidget>
#include <nlohmann/json_fwd.hpp>

namespace deniable::ui {

struct OmegaChoice {
  int min = 0;
  int max = 0;
};

class PassRateGrid : public QTableWidget {
  Q_OBJECT

 public:
  explicit PassRateGrid(QWidget* parent = nullptr);

  // The advisor's JSON (Advice::ToJson: sweep.rows[].omega, pass_rate_by_k).
  void setAdvice(const nlohmann::json& advice);
  // Highlights the cell of the current settings; returns its pass rate when the grid has it.
  std::optional<double> markCurrent(int k, int omega_min, int omega_max);

  static std::optional<OmegaChoice> parseOmega(const QString& text);  // "9", "5-11"

 signals:
  void cellChosen(int k, int omega_min, int omega_max);
};

}  // namespace deniable::ui
