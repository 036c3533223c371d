// SPDX-License-Identifier: Apache-2.0
// The release report as a PDF: the very HTML of BuildReleaseReportHtml (release_report.h), so the
// two formats cannot say different things, laid out by QTextDocument and printed with
// QPdfWriter on A4 portrait with page numbers (print_pages.h: tables break between rows, with
// their header rows repeated).
//
// QTextDocument reads a subset of HTML 4 and CSS 2 (no CSS variables, no grid, no <section>),
// so the HTML is adapted first: its stylesheet is replaced by one in that subset (sizes in
// points, which print at the same size whatever the writer's resolution), HTML5 blocks become
// <div>s, and each embedded base64 PNG becomes a document resource shown no wider than the
// page's text. Nothing is added or removed: what a shareable HTML report leaves out, its PDF
// leaves out too.
//
// Needs a QGuiApplication (fonts); any thread: text layout and the PDF writer, no widget (the
// GUI's export lays the PDF out on a worker, StageReport in ui/tasks/export_job.h).
#pragma once

#include <memory>

#include <QByteArray>
#include <QString>

QT_BEGIN_NAMESPACE
class QPagedPaintDevice;
class QPdfWriter;
class QTextDocument;
QT_END_NAMESPACE

namespace deniable::ui {

// The PDF bytes of a report whose HTML is `html` ("%PDF-..."). `title` goes into the PDF's
// metadata.
QByteArray ReleaseReportPdf(const QString& html, const QString& title);

// The HTML that ReleaseReportPdf lays out, with images referenced as "report-image:N"
// resources (for tests and for looking at what QTextDocument is given).
QString ReleaseReportPrintHtml(const QString& html);

struct PrintPages;

// The document ReleaseReportPdf prints, laid out in pages of `device` (print_pages.h: rows
// not cut, short tables and headings kept with their tables, header rows repeated); where
// the pages are goes to `pages` when given. For tests and for looking at the layout.
std::unique_ptr<QTextDocument> ReleaseReportPrintDocument(const QString& html,
                                                          QPagedPaintDevice& device,
                                                          PrintPages* pages = nullptr);

// A4 portrait at 300 dpi without margins of its own, `title` and the creator in the metadata.
void SetUpReportWriter(QPdfWriter& writer, const QString& title);

}  // namespace deniable::ui
