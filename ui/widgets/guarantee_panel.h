// SPDX-License-Identifier: Apache-2.0
// The right-hand "Guarantee" panel: the mode, the numbers and the engine's plain sentence, the
// warnings and notes (GuaranteeSummary). Always visible in a dock; updated on every change.
#pragma once

#include <QWidget>

#include "ui/session/guarantee_summary.h"

class QLabel;

namespace deniable::ui {

class GuaranteePanel : public QWidget {
  Q_OBJECT

 public:
  explicit GuaranteePanel(QWidget* parent = nullptr);
  void setSummary(const GuaranteeSummary& summary);
  // The panel's text as shown (for tests and the screenshot check).
  QString text() const;

 private:
  QLabel* label_;
};

// The summary as HTML (shared by the panel and the Privacy page). Without warnings, a line
// points to the Guarantee panel when there are any.
QString guaranteeHtml(const GuaranteeSummary& summary, bool with_notes, bool with_mode = true,
                      bool with_warnings = true);

}  // namespace deniable::ui
