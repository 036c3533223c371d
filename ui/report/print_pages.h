// SPDX-License-Identifier: Apache-2.0
// Printing a QTextDocument in pages whose tables break well (issue 12: the PDF report).
//
// QTextDocument::print() lays an unpaginated document out on the printer and prints it, but it
// cuts a table row in two at a page's end (a ledger entry begins at the bottom of one page and
// ends at the top of the next), leaves a heading alone at the bottom of a page while its table
// starts on the next, and splits a short table that would fit on one page. Here the same layout
// is made by hand (the same 2 cm margins inside the device's own, the page number at the bottom
// right), then adjusted, then printed page by page:
//   - a table row that would be cut starts on the next page: the table is split there, its
//     second part starting a page (QTextDocument has no way to keep a row's lines together);
//   - a table that fits on a page is not split: it starts on the next page;
//   - a heading (and the few paragraphs between it and its table) moves with the table when
//     the table's first row would be on another page than the heading.
// The header rows of a table (<thead>, QTextTableFormat::headerRowCount) repeat on each page:
// QTextDocument does that itself. Every table's columns get fixed widths
// (ProportionalColumnWidths), the same in each part of a split table.
//
// Not for documents shown on screen (they are not paginated).
#pragma once

#include <optional>
#include <vector>

#include <QList>
#include <QPointF>
#include <QRectF>
#include <QTextLength>

QT_BEGIN_NAMESPACE
class QPagedPaintDevice;
class QTextDocument;
QT_END_NAMESPACE

namespace deniable::ui {

// Where the pages are, in the device's coordinates.
struct PrintPages {
  QRectF body;            // one page
  QPointF pageNumberPos;  // the baseline's right end of the page number on page 1
  qreal margin = 0;       // the top and bottom margin inside a page
};

// Lays `document` out on `device` in pages, as QTextDocument::print() would (2 mm device
// margins when it has none, then 2 cm inside them).
PrintPages PaginateForPrint(QTextDocument& document, QPagedPaintDevice& device);

// The tables of the root frame numbered `breakBefore` start on a new page; then each table
// that fits on a page but is split, or whose first row is on another page than its heading,
// moves (with the heading) to the next page. `margin`: PrintPages::margin.
void KeepTablesTogether(QTextDocument& document, qreal margin,
                        const std::vector<int>& breakBefore);

// The first row, in document order, that is cut by a page's end (not a header row, not the
// first row: KeepTablesTogether moves those; not a row taller than a page); when that is a
// table's last row, or the page breaks just before its last row, the row above it instead,
// so that the last row (a total) never stands alone on a page. `table` counts
// the root frame's tables, `row` includes the header rows. The caller splits the table before
// that row, the second part on a new page with the header rows again, and lays out again.
struct TableRow {
  int table = 0;
  int row = 0;
};
std::optional<TableRow> FirstCutRow(const QTextDocument& document, qreal margin);

// Fixed column widths for each table of the root frame (in document order), in percent of
// its width. QTextDocument sizes a table's columns from its rows, so the two parts of a split
// table would not line up, and a column of long unbreakable words (a SHA-256, a reference)
// takes the width the others needed. Here each column gets at least its longest unbreakable
// word (when the table's words fit in its width at all; else its share of them), and the
// width left over in proportion to how much more its longest line would take. A table whose
// widths are set (the ledger's, in report_pdf.cpp) keeps them. `document`: laid out by
// PaginateForPrint (the widths are measured on its device).
using ColumnWidths = QList<QTextLength>;
std::vector<ColumnWidths> ProportionalColumnWidths(const QTextDocument& document);
// Sets table i's column widths to widths[i] (an empty entry, or a table past the end: left
// as they are). Lay the document out again after (LayOutFully).
void SetColumnWidths(QTextDocument& document, const std::vector<ColumnWidths>& widths);

// Lays the whole document out again. QTextDocument lays out lazily, and after a format change
// only around it: a block it had not reached before keeps an empty layout (no height, not
// drawn). Call after changing formats, before measuring or printing.
void LayOutFully(QTextDocument& document);

// Prints the pages of a document PaginateForPrint laid out, each numbered.
void PrintPaginated(const QTextDocument& document, QPagedPaintDevice& device,
                    const PrintPages& pages);

}  // namespace deniable::ui
