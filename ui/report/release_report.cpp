// SPDX-License-Identifier: Apache-2.0
#include "ui/report/release_report.h"

#include <QCryptographicHash>
#include <QFile>

#include "engine/core/atomic_file.h"
#include "ui/report/report_charts.h"
#include "ui/report/report_html.h"
#include "ui/report/report_pdf.h"
#include "ui/report/report_sections.h"
#include "ui/review/network_facts.h"
#include "ui/review/privacy_facts.h"
#include "ui/review/review_format.h"

namespace deniable::ui {

using report_html::escape;

QString BuildReleaseReportHtml(const ReviewData& data, const ReportContext& context,
                               const ReportOptions& options) {
  return BuildReleaseReportHtml(data, context, options, DrawReportImages(data, options));
}

QString BuildReleaseReportHtml(const ReviewData& data, const ReportContext& context,
                               const ReportOptions& options, const ReportImages& images) {
  const bool owner = options.audience == ReportAudience::kOwner;
  const PrivacyFacts privacy = ExtractPrivacyFacts(data);
  const NetworkFacts network = ExtractNetworkFacts(data);

  QString html = QStringLiteral(
                     "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                     "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                     "<meta name=\"generator\" content=\"Deniable %1\">\n"
                     "<title>%2</title>\n<style>%3</style>\n</head>\n<body>\n<main>\n")
                     .arg(escape(context.app_version), escape(QObject::tr("Release report")),
                          report_html::styleSheet());
  QString badges = owner ? QStringLiteral("<span class=\"badge owner\">%1</span>")
                               .arg(escape(QObject::tr("Owner copy — do not publish")))
                         : QStringLiteral("<span class=\"badge shareable\">%1</span>")
                               .arg(escape(QObject::tr("Shareable")));
  if (privacy.reproducible_not_private) {
    badges += QStringLiteral("<span class=\"badge notprivate\">%1</span>")
                  .arg(escape(QObject::tr("NOT a private release (fixed seed)")));
  }
  html += QStringLiteral("<header class=\"report\"><h1>%1%2</h1><div class=\"meta\">%3</div></header>\n")
              .arg(escape(QObject::tr("Synthetic data release report")), badges,
                   escape(QObject::tr("Created %1 by Deniable %2 · mode %3")
                              .arg(context.created.toUTC().toString(Qt::ISODate),
                                   context.app_version, toQString(data.description.mode))));
  html += QStringLiteral("<p>%1</p>").arg(escape(
      owner ? QObject::tr("This copy has two parts: the shareable report, then a part for the "
                          "data owner only, which contains statistics of the real data.")
            : QObject::tr("This report documents a differentially private synthetic data "
                          "release. It contains only what the release itself reveals: no real "
                          "records and no statistic of the real data.")));

  html += report_sections::guaranteeSection(privacy);
  html += report_sections::verdictSection(data, false);
  html += report_sections::warningSection(privacy, false);
  html += report_sections::releaseSection(data, privacy);
  html += report_sections::parameterSection(data);
  html += report_sections::ledgerSection(data, privacy);
  html += report_sections::domainSection(data);
  html += report_sections::modelSection(data, network, images.network);
  html += report_sections::outputSection(context);
  html += report_sections::scopeSection();
  if (owner) {
    html += report_sections::ownerSection(data, context, options, privacy, images);
    html += report_sections::verdictSection(data, true, options.risk.get(), options.attacks.get(),
                                            options.attack_threshold);
  }

  html += QStringLiteral("<footer>%1</footer>\n</main>\n</body>\n</html>\n")
              .arg(escape(QObject::tr("Deniable %1 — differentially private synthetic data. "
                                      "Guarantees hold for neighbouring datasets that differ by "
                                      "one person's record.")
                              .arg(context.app_version)));
  return html;
}

ReportFormat ReportFormatOf(const QString& path) {
  return path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive) ? ReportFormat::kPdf
                                                                    : ReportFormat::kHtml;
}

Status WriteReleaseReport(const QString& path, const ReviewData& data,
                          const ReportContext& context, const ReportOptions& options) {
  const std::string destination = path.toStdString();
  const std::string input = context.input_path.toStdString();
  if (!input.empty()) {
    if (Status s = CheckNotOverwritingInput(destination, {input}); !s) return s;
  }
  const QString html = BuildReleaseReportHtml(data, context, options);
  const QByteArray bytes = ReportFormatOf(path) == ReportFormat::kPdf
                               ? ReleaseReportPdf(html, QObject::tr("Synthetic data release report"))
                               : html.toUtf8();
  return WriteFileAtomically(destination, std::string_view(bytes.constData(),
                                                           static_cast<std::size_t>(bytes.size())));
}

Result<QString> FileSha256(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    return IoError(path.toStdString() + ": cannot open for reading: " +
                   file.errorString().toStdString());
  }
  QCryptographicHash hash(QCryptographicHash::Sha256);
  if (!hash.addData(&file)) {
    return IoError(path.toStdString() + ": read error: " + file.errorString().toStdString());
  }
  return QString::fromLatin1(hash.result().toHex());
}

}  // namespace deniable::ui
