// SPDX-License-Identifier: Apache-2.0
#include "ui/report/report_html.h"

#include <cmath>

#include "ui/review/review_render.h"

namespace deniable::ui::report_html {

QString escape(const QString& text) { return text.toHtmlEscaped(); }

QString table(const QStringList& headers, const QList<QStringList>& rows, const QString& cssClass,
              bool rawCells) {
  QString html = cssClass.isEmpty() ? QStringLiteral("<table>")
                                    : QStringLiteral("<table class=\"%1\">").arg(cssClass);
  html += QStringLiteral("<thead><tr>");
  for (const QString& header : headers) html += QStringLiteral("<th>%1</th>").arg(escape(header));
  html += QStringLiteral("</tr></thead><tbody>");
  for (const QStringList& row : rows) {
    html += QStringLiteral("<tr>");
    for (const QString& cell : row) {
      html += QStringLiteral("<td>%1</td>").arg(rawCells ? cell : escape(cell));
    }
    html += QStringLiteral("</tr>");
  }
  return html + QStringLiteral("</tbody></table>");
}

QString keyValueTable(const QList<QPair<QString, QString>>& rows) {
  QString html = QStringLiteral("<table class=\"kv\"><tbody>");
  for (const auto& [key, value] : rows) {
    html += QStringLiteral("<tr><th scope=\"row\">%1</th><td>%2</td></tr>")
                .arg(escape(key), escape(value));
  }
  return html + QStringLiteral("</tbody></table>");
}

QString figure(const QImage& image, const QString& alt, const QString& caption) {
  const int width = static_cast<int>(std::lround(image.width() / image.devicePixelRatio()));
  return QStringLiteral(
             "<figure><img src=\"data:image/png;base64,%1\" alt=\"%2\" style=\"width:%3px\">"
             "%4</figure>")
      .arg(QString::fromLatin1(pngBytes(image).toBase64()), escape(alt))
      .arg(width)
      .arg(caption.isEmpty() ? QString()
                             : QStringLiteral("<figcaption>%1</figcaption>").arg(caption));
}

QString section(const QString& id, const QString& title, const QString& body,
                const QString& cssClass) {
  return QStringLiteral("<section id=\"%1\"%2><h2>%3</h2>%4</section>\n")
      .arg(id,
           cssClass.isEmpty() ? QString() : QStringLiteral(" class=\"%1\"").arg(cssClass),
           escape(title), body);
}

QString styleSheet() {
  return QStringLiteral(R"css(
:root { --ink:#1f2933; --muted:#52606d; --line:#d9e2ec; --band:#f5f7fa; --accent:#2f5d8a;
        --warn-bg:#fff6e5; --warn-line:#f0c36d; --owner:#b42318; --owner-bg:#fef3f2; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
       font: 15px/1.5 "Segoe UI", "Helvetica Neue", "DejaVu Sans", Arial, sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 32px 40px 64px; }
header.report { border-bottom: 3px solid var(--accent); padding-bottom: 16px; margin-bottom: 8px; }
header.report h1 { margin: 0 0 4px; font-size: 28px; letter-spacing: -0.01em; }
header.report .meta { color: var(--muted); font-size: 13px; }
.badge { display: inline-block; padding: 2px 10px; border-radius: 999px; font-size: 12px;
         font-weight: 600; vertical-align: middle; margin-left: 8px; }
.badge.shareable { background: #e3f2e8; color: #1e6b3a; border: 1px solid #a7d7b8; }
.badge.owner { background: var(--owner-bg); color: var(--owner); border: 1px solid #f5b5ae; }
.badge.notprivate { background: var(--owner); color: #fff; }
h2 { font-size: 20px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 20px 0 6px; }
p { margin: 6px 0 10px; }
.headline { background: #eef4fb; border: 1px solid #b9cfe8; border-radius: 8px; padding: 16px 20px;
            margin: 20px 0; }
.headline .numbers { font-size: 22px; font-weight: 700; }
.headline .statement { margin-top: 6px; }
.headline .scope { color: var(--muted); font-size: 13px; margin-top: 4px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 12px; font-size: 13.5px; }
th, td { text-align: left; padding: 6px 9px; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { background: var(--band); font-weight: 600; border-bottom: 2px solid var(--line); }
tbody tr:nth-child(even) td { background: #fafbfc; }
table.kv th { width: 34%; font-weight: 600; color: var(--muted); background: none; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.total td { font-weight: 700; border-top: 2px solid var(--ink); background: #fff !important; }
code, .hash { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px;
              word-break: break-all; }
.warnings { background: var(--warn-bg); border: 1px solid var(--warn-line); border-radius: 8px;
            padding: 10px 16px; }
.warnings li { margin: 4px 0; }
.note { color: var(--muted); font-size: 13px; }
figure { margin: 14px 0 18px; text-align: center; page-break-inside: avoid; break-inside: avoid; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 13px; margin-top: 6px; }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 8px 20px; }
section.owner-only { border: 2px solid var(--owner); border-radius: 10px; padding: 4px 20px 16px;
                     margin-top: 48px; background: linear-gradient(var(--owner-bg), #fff 140px); }
.owner-banner { color: var(--owner); font-weight: 700; font-size: 15px; margin: 14px 0 4px; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line);
         padding-top: 10px; }
@media print {
  body { font-size: 11pt; }
  main { max-width: none; padding: 0; }
  h2 { page-break-after: avoid; break-after: avoid; }
  table, figure, .headline { page-break-inside: avoid; break-inside: avoid; }
  section.owner-only { page-break-before: always; break-before: page; background: none; }
  tbody tr:nth-child(even) td { background: none; }
}
@page { margin: 16mm 14mm; }
)css");
}

}  // namespace deniable::ui::report_html
