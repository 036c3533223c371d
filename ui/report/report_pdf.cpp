// SPDX-License-Identifier: Apache-2.0
#include "ui/report/report_pdf.h"

#include <algorithm>
#include <optional>
#include <vector>

#include <QBuffer>
#include <QFont>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextDocument>
#include <QUrl>

#include "ui/report/print_pages.h"

namespace deniable::ui {
namespace {

// The document is laid out as QTextDocument::print() lays an unpaginated one out
// (print_pages.h): 2 cm margins inside the page's own (2 mm when the writer has none), the
// pages numbered at the bottom right. On A4 that
// leaves 166 mm of text width: 627 CSS pixels at 96 per inch. Pictures are shown at most this
// wide (QTextDocument clips, it does not shrink, what is wider than the page).
constexpr int kMaxImageWidth = 620;

// The stylesheet of the printed report, in the CSS subset QTextDocument reads (no variables).
// Sizes in points: QTextDocument scales points to the printer, not pixels in fonts.
const char* const kPrintStyleSheet = R"css(
body { color: #1f2933; font-family: "DejaVu Sans"; font-size: 9pt; }
h1 { font-size: 16pt; margin-top: 0; margin-bottom: 3pt; }
h2 { font-size: 12.5pt; color: #2f5d8a; margin-top: 14pt; margin-bottom: 4pt; }
h3 { font-size: 10.5pt; margin-top: 9pt; margin-bottom: 3pt; }
p { margin-top: 2pt; margin-bottom: 5pt; }
.meta, .note, .caption, .scope { color: #52606d; font-size: 8pt; }
.badge { font-size: 9pt; font-weight: bold; }
.shareable { font-size: 9pt; color: #1e6b3a; background-color: #e3f2e8; }
.owner { font-size: 9pt; color: #b42318; background-color: #fef3f2; }
.notprivate { font-size: 9pt; color: #ffffff; background-color: #b42318; }
.headline { background-color: #eef4fb; margin-top: 8pt; margin-bottom: 8pt; }
.numbers { font-size: 13pt; font-weight: bold; }
table { border-collapse: collapse; margin-top: 3pt; margin-bottom: 7pt; }
th { background-color: #f5f7fa; font-weight: bold; text-align: left; }
th, td { border-bottom-style: solid; border-bottom-width: 1px; border-bottom-color: #d9e2ec;
         border-top-width: 0; border-left-width: 0; border-right-width: 0; font-size: 8pt; }
table.kv th { background-color: #ffffff; color: #52606d; }
td.num, th.num { text-align: right; white-space: nowrap; }
td.wrapnum, th.wrapnum { text-align: right; }
tr.total td { font-weight: bold; }
code, .hash { font-family: "DejaVu Sans Mono"; font-size: 7.5pt; }
.warnings { background-color: #fff6e5; }
.figure { margin-top: 6pt; margin-bottom: 8pt; text-align: center; }
.owner-only { page-break-before: always; }
.owner-banner { color: #b42318; font-weight: bold; font-size: 10.5pt; }
.footer { color: #52606d; font-size: 7.5pt; margin-top: 18pt; }
)css";

struct PrintDocument {
  QString html;
  std::vector<QImage> images;  // resource "report-image:N" is images[N]
};

PrintDocument Adapt(const QString& source) {
  PrintDocument out;
  QString html = source;
  static const QRegularExpression style(QStringLiteral("<style>.*</style>"),
                                        QRegularExpression::DotMatchesEverythingOption);
  html.remove(style);
  // HTML5 blocks QTextDocument does not know would become inline runs: make them <div>s.
  static const QRegularExpression open(
      QStringLiteral("<(section|header|main|footer)\\b"));
  static const QRegularExpression close(QStringLiteral("</(section|header|main|footer)>"));
  html.replace(QStringLiteral("<footer>"), QStringLiteral("<div class=\"footer\">"));
  html.replace(open, QStringLiteral("<div"));
  html.replace(close, QStringLiteral("</div>"));
  html.replace(QStringLiteral("<figure>"), QStringLiteral("<div class=\"figure\">"));
  html.replace(QStringLiteral("</figure>"), QStringLiteral("</div>"));
  html.replace(QStringLiteral("<figcaption>"), QStringLiteral("<p class=\"caption\">"));
  html.replace(QStringLiteral("</figcaption>"), QStringLiteral("</p>"));
  // Tables span the text width; QTextDocument draws cell borders only with a table border.
  html.replace(QStringLiteral("<table"),
               QStringLiteral("<table width=\"100%\" cellspacing=\"0\" cellpadding=\"3\""));
  // The ledger's columns in proportion to what they hold: left to QTextDocument, the numbers
  // (kept on one line) take the width and the labels wrap a syllable a line.
  static const QRegularExpression ledgerHead(
      QStringLiteral("(<table[^>]*class=\"ledger\"[^>]*><thead><tr>)(.*?)(</tr>)"));
  const QRegularExpressionMatch head = ledgerHead.match(html);
  if (head.hasMatch()) {
    static const int kLedgerWidths[] = {19, 15, 14, 7, 12, 7, 26};  // percent, 7 columns
    QString cells = head.captured(2);
    qsizetype at = 0;
    for (int width : kLedgerWidths) {
      at = cells.indexOf(QStringLiteral("<th"), at);
      if (at < 0) break;
      const QString attribute = QStringLiteral(" width=\"%1%\"").arg(width);
      cells.insert(at + 3, attribute);
      at += 3 + attribute.size();
    }
    html.replace(head.capturedStart(2), head.capturedLength(2), cells);
    // Its numbers may wrap ("ρ = 0.0038 zCDP + 3.7×10⁻¹¹" on one line would take a third
    // of the page): the widths then hold in every part of a table split at a page's end.
    const qsizetype end = html.indexOf(QStringLiteral("</table>"), head.capturedStart(0));
    QString ledger = html.mid(head.capturedStart(0), end - head.capturedStart(0));
    ledger.replace(QStringLiteral("class=\"num\""), QStringLiteral("class=\"wrapnum\""));
    html.replace(head.capturedStart(0), end - head.capturedStart(0), ledger);
  }
  // The title's badges on a line of their own (QTextDocument sizes them as the heading).
  static const QRegularExpression badges(QStringLiteral("<h1>(.*?)(<span class=\"badge.*?)</h1>"));
  html.replace(badges, QStringLiteral("<h1>\\1</h1><p>\\2</p>"));
  html.replace(QStringLiteral("</span><span class=\"badge"), QStringLiteral("</span>&nbsp; <span class=\"badge"));
  // Each embedded PNG becomes a resource, at its logical width (capped at the text width).
  static const QRegularExpression image(QStringLiteral(
      "<img src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\" alt=\"([^\"]*)\" "
      "style=\"width:(\\d+)px\">"));
  QString adapted;
  qsizetype last = 0;
  QRegularExpressionMatchIterator it = image.globalMatch(html);
  while (it.hasNext()) {
    const QRegularExpressionMatch match = it.next();
    adapted += html.mid(last, match.capturedStart() - last);
    last = match.capturedEnd();
    const QImage picture =
        QImage::fromData(QByteArray::fromBase64(match.captured(1).toLatin1()), "PNG");
    const int width = std::min(match.captured(3).toInt(), kMaxImageWidth);
    adapted += QStringLiteral("<img src=\"report-image:%1\" alt=\"%2\" width=\"%3\">")
                   .arg(out.images.size())
                   .arg(match.captured(2))
                   .arg(width);
    out.images.push_back(picture);
  }
  adapted += html.mid(last);
  out.html = adapted;
  return out;
}

// A long report has a few dozen page ends; each split costs a layout of the whole document.
constexpr int kMaxSplits = 200;

// `html` with its table number `table` (in document order; the report nests no tables, so the
// root frame's tables are its <table>s) split before its row `row`
// (counting the header rows): the second part repeats the first's opening tag and <thead>.
// `html` itself when there is no such row.
QString SplitTable(const QString& html, int table, int row) {
  qsizetype start = -1;
  for (int t = 0; t <= table; ++t) {
    start = html.indexOf(QStringLiteral("<table"), start + 1);
    if (start < 0) return html;
  }
  const qsizetype end = html.indexOf(QStringLiteral("</table>"), start);
  const qsizetype openEnd = html.indexOf(QLatin1Char('>'), start) + 1;
  if (end < 0 || openEnd <= 0) return html;
  QString head = html.mid(start, openEnd - start);
  const qsizetype theadStart = html.indexOf(QStringLiteral("<thead>"), openEnd);
  if (theadStart >= 0 && theadStart < end) {
    const qsizetype theadEnd = html.indexOf(QStringLiteral("</thead>"), theadStart);
    if (theadEnd < 0 || theadEnd > end) return html;
    head += html.mid(theadStart, theadEnd + 8 - theadStart);
  }
  qsizetype at = openEnd - 1;
  for (int r = 0; r <= row; ++r) {
    at = html.indexOf(QStringLiteral("<tr"), at + 1);
    if (at < 0 || at > end) return html;
  }
  QString out = html;
  out.insert(at, QStringLiteral("</tbody></table>") + head + QStringLiteral("<tbody>"));
  return out;
}

}  // namespace

QString ReleaseReportPrintHtml(const QString& html) { return Adapt(html).html; }

std::unique_ptr<QTextDocument> ReleaseReportPrintDocument(const QString& html,
                                                          QPagedPaintDevice& device,
                                                          PrintPages* pages) {
  const PrintDocument adapted = Adapt(html);
  const auto make = [&adapted](const QString& text) {
    auto document = std::make_unique<QTextDocument>();
    document->setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
    document->setDefaultStyleSheet(QString::fromUtf8(kPrintStyleSheet));
    for (std::size_t i = 0; i < adapted.images.size(); ++i) {
      document->addResource(QTextDocument::ImageResource,
                            QUrl(QStringLiteral("report-image:%1").arg(i)),
                            QVariant(adapted.images[i]));
    }
    document->setHtml(text);
    return document;
  };
  // Lay out; split the table whose row a page's end cuts before that row; again until no row
  // is cut (each split moves what follows down: one at a time).
  QString text = adapted.html;
  std::vector<int> continued;  // the tables that are second parts
  // Each table's column widths, from the whole table (the report before any split): both parts
  // of a split table keep them.
  std::vector<ColumnWidths> widths;
  PrintPages laidOut;
  std::unique_ptr<QTextDocument> document;
  for (int split = 0;; ++split) {
    document = make(text);  // a new document: one laid out before keeps traces of it
    SetColumnWidths(*document, widths);
    laidOut = PaginateForPrint(*document, device);
    if (split == 0) {
      widths = ProportionalColumnWidths(*document);
      SetColumnWidths(*document, widths);
      LayOutFully(*document);
    }
    KeepTablesTogether(*document, laidOut.margin, continued);
    const std::optional<TableRow> cut = FirstCutRow(*document, laidOut.margin);
    if (!cut || split == kMaxSplits) break;
    const QString next = SplitTable(text, cut->table, cut->row);
    if (next == text) break;
    text = next;
    for (int& index : continued) {
      if (index > cut->table) ++index;
    }
    if (static_cast<std::size_t>(cut->table) < widths.size()) {
      const ColumnWidths part = widths[static_cast<std::size_t>(cut->table)];
      widths.insert(widths.begin() + cut->table + 1, part);
    }
    continued.push_back(cut->table + 1);
  }
  LayOutFully(*document);
  if (pages != nullptr) *pages = laidOut;
  return document;
}

void SetUpReportWriter(QPdfWriter& writer, const QString& title) {
  writer.setTitle(title);
  writer.setCreator(QStringLiteral("Deniable %1").arg(QStringLiteral(DENIABLE_VERSION)));
  writer.setResolution(300);
  // No margins of the writer's own: the layout then uses 2 mm plus 2 cm inside them.
  writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                   QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
}

QByteArray ReleaseReportPdf(const QString& html, const QString& title) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter writer(&buffer);
    SetUpReportWriter(writer, title);
    PrintPages pages;
    const std::unique_ptr<QTextDocument> document =
        ReleaseReportPrintDocument(html, writer, &pages);
    PrintPaginated(*document, writer, pages);
  }
  return bytes;
}

}  // namespace deniable::ui
