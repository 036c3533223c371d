// SPDX-License-Identifier: Apache-2.0
#include "ui/widgets/guarantee_panel.h"

#include <QLabel>
#include <QScrollArea>
#include <QTextDocument>
#include <QVBoxLayout>

#include "ui/text/format.h"

namespace deniable::ui {

QString guaranteeHtml(const GuaranteeSummary& summary, bool with_notes, bool with_mode,
                      bool with_warnings) {
  if (!summary.available) {
    return GuaranteePanel::tr("<p>Open a CSV file: the guarantee of your release will appear "
                              "here, in numbers and in plain words.</p>");
  }
  QString html = with_mode ? QStringLiteral("<p><b>%1</b><br><small>%2</small></p>")
                                .arg(summary.mode.toHtmlEscaped(), summary.scope.toHtmlEscaped())
                          : QString();
  html += QStringLiteral("<table cellspacing='2'>");
  for (const auto& [label, value] : summary.numbers) {
    html += QStringLiteral("<tr><td>%1:&nbsp;</td><td><b>%2</b></td></tr>")
                .arg(label.toHtmlEscaped(), value.toHtmlEscaped());
  }
  html += QStringLiteral("</table>");
  if (!summary.statement.isEmpty()) {
    html += QStringLiteral("<p><i>“%1”</i></p>").arg(summary.statement.toHtmlEscaped());
  }
  if (with_warnings) {
    for (const QString& warning : summary.warnings) {
      html += QStringLiteral("<p>⚠ %1</p>").arg(warning.toHtmlEscaped());
    }
  } else if (!summary.warnings.isEmpty()) {
    html += GuaranteePanel::tr("<p>⚠ See the Guarantee panel on the right: %1.</p>")
                .arg(countOf(summary.warnings.size(), GuaranteePanel::tr("warning"),
                             GuaranteePanel::tr("warnings")));
  }
  if (with_notes) {
    for (const QString& note : summary.notes) {
      html += QStringLiteral("<p>ℹ %1</p>").arg(note.toHtmlEscaped());
    }
  }
  return html;
}

GuaranteePanel::GuaranteePanel(QWidget* parent) : QWidget(parent), label_(new QLabel) {
  label_->setWordWrap(true);
  label_->setTextFormat(Qt::RichText);
  label_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  label_->setMargin(6);
  label_->setToolTip(tr("What your release guarantees to every person in your data, computed by "
                        "the engine's privacy accountant."));
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(label_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(scroll);
  setMinimumWidth(220);
  setSummary(GuaranteeSummary{});
}

void GuaranteePanel::setSummary(const GuaranteeSummary& summary) {
  label_->setText(guaranteeHtml(summary, /*with_notes=*/true));
}

QString GuaranteePanel::text() const {
  QTextDocument document;
  document.setHtml(label_->text());
  return document.toPlainText();
}

}  // namespace deniable::ui
