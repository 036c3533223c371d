// SPDX-License-Identifier: Apache-2.0
#include "ui/report/report_pdf.h"

#include <algorithm>
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

namespace deniable::ui {
namespace {

// QTextDocument::print() lays an unpaginated document out with 2 cm margins inside the page's
// own (2 mm when the writer has none) and numbers the pages at the bottom right. On A4 that
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

}  // namespace

QString ReleaseReportPrintHtml(const QString& html) { return Adapt(html).html; }

QByteArray ReleaseReportPdf(const QString& html, const QString& title) {
  const PrintDocument adapted = Adapt(html);
  QTextDocument document;
  document.setDefaultFont(QFont(QStringLiteral("DejaVu Sans"), 9));
  document.setDefaultStyleSheet(QString::fromUtf8(kPrintStyleSheet));
  for (std::size_t i = 0; i < adapted.images.size(); ++i) {
    document.addResource(QTextDocument::ImageResource,
                         QUrl(QStringLiteral("report-image:%1").arg(i)),
                         QVariant(adapted.images[i]));
  }
  document.setHtml(adapted.html);

  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  {
    QPdfWriter writer(&buffer);
    writer.setTitle(title);
    writer.setCreator(QStringLiteral("Deniable %1").arg(QStringLiteral(DENIABLE_VERSION)));
    writer.setResolution(300);
    // No margins of the writer's own: print() then uses its 2 mm plus 2 cm inside them.
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
    document.print(&writer);
  }
  return bytes;
}

}  // namespace deniable::ui
