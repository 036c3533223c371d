// SPDX-License-Identifier: Apache-2.0
#include "ui/report/print_pages.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <QAbstractTextDocumentLayout>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QPagedPaintDevice>
#include <QPainter>
#include <QRegularExpression>
#include <QScreen>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

namespace deniable::ui {
namespace {

// QTextDocument::print() measures its 2 cm margins in qt_defaultDpi units (the primary screen's
// logical DPI in a GUI application, else 96); the layout scales them to the device with it.
qreal SourceDpi(bool horizontal) {
  if (const QScreen* screen = QGuiApplication::primaryScreen()) {
    return qRound(horizontal ? screen->logicalDotsPerInchX() : screen->logicalDotsPerInchY());
  }
  return 96;
}

constexpr int kLeadInBlocks = 3;  // a heading at most this many paragraphs above its table

struct Extent {
  qreal top = std::numeric_limits<qreal>::max();
  qreal bottom = std::numeric_limits<qreal>::lowest();
};

}  // namespace

void LayOutFully(QTextDocument& document) {
  document.markContentsDirty(0, document.characterCount());
  document.pageCount();  // finishes the layout
}

namespace {

// A table's place among the tables of the root frame, in document order.
std::vector<QTextTable*> RootTables(const QTextDocument& document) {
  std::vector<QTextTable*> tables;
  for (QTextFrame* frame : document.rootFrame()->childFrames()) {
    if (auto* table = qobject_cast<QTextTable*>(frame)) tables.push_back(table);
  }
  return tables;
}

class PageGeometry {
 public:
  PageGeometry(const QTextDocument& document, qreal margin)
      : document_(document),
        layout_(document.documentLayout()),
        pageHeight_(document.pageSize().height()),
        margin_(margin) {}

  int pageOf(qreal y) const { return static_cast<int>(std::floor(y / pageHeight_)); }
  qreal content() const { return pageHeight_ - 2 * margin_; }
  bool atPageTop(qreal y) const { return y - pageOf(y) * pageHeight_ <= margin_ + 1; }
  QRectF rectOf(const QTextBlock& block) const { return layout_->blockBoundingRect(block); }

  Extent rowExtent(const QTextTable* table, int row) const {
    Extent extent;
    for (int column = 0; column < table->columns(); ++column) {
      const QTextTableCell cell = table->cellAt(row, column);
      if (!cell.isValid() || cell.row() != row || cell.column() != column) continue;
      extent.top = std::min(extent.top, rectOf(cell.firstCursorPosition().block()).top());
      extent.bottom = std::max(extent.bottom, rectOf(cell.lastCursorPosition().block()).bottom());
    }
    return extent;
  }
  bool cut(const Extent& extent) const {
    return pageOf(extent.top) != pageOf(extent.bottom - 1) && extent.bottom - extent.top <= content();
  }

 private:
  const QTextDocument& document_;
  QAbstractTextDocumentLayout* layout_;
  qreal pageHeight_;
  qreal margin_;  // the page's top and bottom margin, device units
};

// The heading above the table whose root-frame item is `index`, with at most kLeadInBlocks - 1
// paragraphs between them (empty blocks, which QTextDocument hides around tables, skipped).
QTextBlock LeadIn(const std::vector<QTextFrame::iterator>& items, std::size_t index) {
  int blocks = 0;
  for (std::size_t i = index; i-- > 0 && blocks < kLeadInBlocks;) {
    if (items[i].currentFrame() != nullptr) break;
    const QTextBlock block = items[i].currentBlock();
    if (block.text().trimmed().isEmpty()) continue;
    if (block.blockFormat().headingLevel() > 0) return block;
    ++blocks;
  }
  return {};
}

void BreakBefore(QTextTable* table) {
  QTextTableFormat format = table->format();
  format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
  table->setFormat(format);
}

// One pass of the heading and short-table rules: moves the first table (with its heading)
// that breaks badly to the next page. False when none does.
bool MoveOneTable(QTextDocument& document, qreal margin) {
  const PageGeometry pages(document, margin);
  std::vector<QTextFrame::iterator> items;
  for (auto it = document.rootFrame()->begin(); !it.atEnd(); ++it) items.push_back(it);
  for (std::size_t i = 0; i < items.size(); ++i) {
    auto* table = qobject_cast<QTextTable*>(items[i].currentFrame());
    if (table == nullptr || table->rows() == 0) continue;
    const int rows = table->rows();
    const int firstBody = std::min(table->format().headerRowCount(), rows - 1);
    const Extent whole{pages.rowExtent(table, 0).top, pages.rowExtent(table, rows - 1).bottom};
    const QTextBlock heading = LeadIn(items, i);
    const qreal start = heading.isValid() ? pages.rectOf(heading).top() : whole.top;
    const bool split = pages.pageOf(whole.top) != pages.pageOf(whole.bottom - 1);
    const bool fits = whole.bottom - start <= pages.content();
    const bool apart =
        pages.pageOf(start) != pages.pageOf(pages.rowExtent(table, firstBody).bottom - 1);
    if (!((fits && split) || apart) || pages.atPageTop(start)) continue;
    if (heading.isValid()) {
      QTextBlockFormat format;
      format.setPageBreakPolicy(QTextFormat::PageBreak_AlwaysBefore);
      QTextCursor(heading).mergeBlockFormat(format);
    } else {
      BreakBefore(table);
    }
    return true;
  }
  return false;
}

}  // namespace

void KeepTablesTogether(QTextDocument& document, qreal margin, const std::vector<int>& breakBefore) {
  const std::vector<QTextTable*> tables = RootTables(document);
  for (int index : breakBefore) {
    if (index >= 0 && index < static_cast<int>(tables.size())) BreakBefore(tables[index]);
  }
  // PaginateForPrint laid every block out: from here on QTextDocument's own relayout after a
  // change is enough (finished by pageCount()).
  document.pageCount();
  // Each move can only push what follows down: a pass per table at most.
  for (std::size_t pass = 0; pass <= tables.size() && MoveOneTable(document, margin); ++pass) {
    document.pageCount();
  }
}

namespace {

// What a column's cells need, device units: their longest unbreakable run and longest line.
struct ColumnNeed {
  qreal least = 0;
  qreal most = 0;
};

void AddCellNeed(const QTextDocument& document, const QTextTableCell& cell, QPaintDevice* device,
                 ColumnNeed& need) {
  for (auto it = cell.begin(); !it.atEnd(); ++it) {
    const QTextBlock block = it.currentBlock();
    if (!block.isValid()) continue;
    qreal line = 0;
    for (auto part = block.begin(); !part.atEnd(); ++part) {
      const QTextFragment fragment = part.fragment();
      if (!fragment.isValid()) continue;
      const QFontMetricsF metrics(fragment.charFormat().font().resolve(document.defaultFont()),
                                  device);
      const QString text = fragment.text();
      line += metrics.horizontalAdvance(text);
      // Words break at spaces only: a column name ("education-num") or a number range kept
      // whole, though QTextDocument would break it after a hyphen or a dash.
      static const QRegularExpression spaces(QStringLiteral("[ \\t\\n\\x{2028}\\x{2029}]+"));
      for (const QString& word : text.split(spaces, Qt::SkipEmptyParts)) {
        need.least = std::max(need.least, metrics.horizontalAdvance(word));
      }
    }
    need.most = std::max(need.most, line);
  }
}

// Shares `width` out between columns with these needs. First every column whose longest line
// is within an equal share of what is left gets it whole (a short column never wraps); the
// others share the rest in proportion to their longest lines, each at least its longest word.
// When the words alone do not fit, each column gets its words' share.
std::vector<qreal> ShareOut(const std::vector<ColumnNeed>& needs, qreal width) {
  const std::size_t n = needs.size();
  std::vector<qreal> widths(n, 0);
  qreal words = 0;
  for (const ColumnNeed& need : needs) words += need.least;
  if (words > width) {
    for (std::size_t c = 0; c < n; ++c) widths[c] = width * needs[c].least / words;
    return widths;
  }
  std::vector<bool> set(n, false);
  qreal left = width;
  std::size_t open = n;
  const auto fix = [&](std::size_t c, qreal w) {
    widths[c] = w;
    set[c] = true;
    left -= w;
    --open;
  };
  qreal openWords = words;  // the longest words of the columns not set yet
  for (bool again = true; again && open > 0;) {
    again = false;
    const qreal share = left / static_cast<qreal>(open);
    for (std::size_t c = 0; c < n; ++c) {
      if (set[c] || needs[c].most > share) continue;
      // ... unless the other columns' words would no longer fit.
      if (left - needs[c].most < openWords - needs[c].least) continue;
      openWords -= needs[c].least;
      fix(c, needs[c].most);
      again = true;
    }
  }
  for (bool again = true; again && open > 0;) {
    again = false;
    qreal lines = 0;
    for (std::size_t c = 0; c < n; ++c) lines += set[c] ? 0 : needs[c].most;
    for (std::size_t c = 0; c < n; ++c) {
      if (set[c]) continue;
      widths[c] = left * needs[c].most / lines;
      if (widths[c] < needs[c].least) {
        fix(c, needs[c].least);
        again = true;
        break;
      }
    }
  }
  // Every line fits: the room left over in proportion to the lines.
  if (open == 0 && left > 0) {
    qreal lines = 0;
    for (const ColumnNeed& need : needs) lines += need.most;
    for (std::size_t c = 0; c < n; ++c) widths[c] += left * needs[c].most / lines;
  }
  return widths;
}

bool HasWidths(const QTextTable& table) {
  const ColumnWidths widths = table.format().columnWidthConstraints();
  return !widths.isEmpty() && std::all_of(widths.begin(), widths.end(), [](const QTextLength& w) {
    return w.type() != QTextLength::VariableLength;
  });
}

}  // namespace

std::vector<ColumnWidths> ProportionalColumnWidths(const QTextDocument& document) {
  QAbstractTextDocumentLayout* layout = document.documentLayout();
  QPaintDevice* device = layout->paintDevice();
  const qreal scale = device != nullptr ? device->logicalDpiX() / SourceDpi(true) : 1.0;
  std::vector<ColumnWidths> all;
  for (QTextTable* table : RootTables(document)) {
    const int columns = table->columns();
    if (HasWidths(*table) || columns == 0) {
      all.push_back(table->format().columnWidthConstraints());
      continue;
    }
    const qreal width = layout->frameBoundingRect(table).width();
    if (width <= 0) {  // not laid out: left as it is
      all.emplace_back();
      continue;
    }
    // A cell's padding on both sides and its borders (source units), on the device.
    const qreal frame =
        (2 * table->format().cellPadding() + 2 * table->format().border() + 2) * scale;
    std::vector<ColumnNeed> needs(static_cast<std::size_t>(columns));
    for (int row = 0; row < table->rows(); ++row) {
      for (int column = 0; column < columns; ++column) {
        const QTextTableCell cell = table->cellAt(row, column);
        // A cell spanning columns tells nothing about one of them.
        if (!cell.isValid() || cell.column() != column || cell.columnSpan() != 1) continue;
        AddCellNeed(document, cell, device, needs[static_cast<std::size_t>(column)]);
      }
    }
    for (ColumnNeed& need : needs) {
      need.least += frame;
      need.most = std::max(need.most + frame, need.least);
    }
    ColumnWidths widths;
    for (const qreal share : ShareOut(needs, width)) {
      widths.append(QTextLength(QTextLength::PercentageLength, 100 * share / width));
    }
    all.push_back(widths);
  }
  return all;
}

void SetColumnWidths(QTextDocument& document, const std::vector<ColumnWidths>& widths) {
  const std::vector<QTextTable*> tables = RootTables(document);
  for (std::size_t i = 0; i < tables.size() && i < widths.size(); ++i) {
    if (widths[i].isEmpty() || widths[i].size() != tables[i]->columns()) continue;
    QTextTableFormat format = tables[i]->format();
    format.setColumnWidthConstraints(widths[i]);
    tables[i]->setFormat(format);
  }
}

std::optional<TableRow> FirstCutRow(const QTextDocument& document, qreal margin) {
  const PageGeometry pages(document, margin);
  const std::vector<QTextTable*> tables = RootTables(document);
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const QTextTable* table = tables[t];
    const int rows = table->rows();
    const int firstBody = std::min(table->format().headerRowCount(), rows - 1);
    // A table's last row (the ledger's total) never goes to a page alone: the row above it
    // goes with it, unless that is the part's first body row (it would move again, forever).
    const bool lastCanTakeOne = rows - 2 > firstBody;
    for (int row = firstBody + 1; row < rows; ++row) {
      if (!pages.cut(pages.rowExtent(table, row))) continue;
      if (row == rows - 1 && lastCanTakeOne) return TableRow{static_cast<int>(t), row - 1};
      return TableRow{static_cast<int>(t), row};
    }
    // The page broke between rows just before the last one (no row cut).
    if (lastCanTakeOne && pages.pageOf(pages.rowExtent(table, rows - 1).top) !=
                              pages.pageOf(pages.rowExtent(table, rows - 2).bottom - 1)) {
      return TableRow{static_cast<int>(t), rows - 2};
    }
  }
  return std::nullopt;
}

PrintPages PaginateForPrint(QTextDocument& document, QPagedPaintDevice& device) {
  if (device.pageLayout().margins(QPageLayout::Millimeter).isNull()) {
    device.setPageMargins(QMarginsF(2, 2, 2, 2), QPageLayout::Millimeter);
  }
  const qreal sourceDpiX = SourceDpi(true);
  const qreal sourceDpiY = SourceDpi(false);
  const qreal scaleX = device.logicalDpiX() / sourceDpiX;
  const qreal scaleY = device.logicalDpiY() / sourceDpiY;
  document.documentLayout()->setPaintDevice(&device);
  const int horizontal = static_cast<int>((2 / 2.54) * sourceDpiX);
  const int vertical = static_cast<int>((2 / 2.54) * sourceDpiY);
  QTextFrameFormat frame = document.rootFrame()->frameFormat();
  frame.setLeftMargin(horizontal);
  frame.setRightMargin(horizontal);
  frame.setTopMargin(vertical);
  frame.setBottomMargin(vertical);
  document.rootFrame()->setFrameFormat(frame);

  PrintPages pages;
  pages.body = QRectF(0, 0, device.width(), device.height());
  pages.pageNumberPos =
      QPointF(pages.body.width() - horizontal * scaleX,
              pages.body.height() - vertical * scaleY +
                  QFontMetrics(document.defaultFont(), &device).ascent() +
                  5 * device.logicalDpiY() / 72.0);
  document.setPageSize(pages.body.size());
  pages.margin = vertical * scaleY;
  LayOutFully(document);  // every block, before anything is measured or changed
  return pages;
}

void PrintPaginated(const QTextDocument& document, QPagedPaintDevice& device,
                    const PrintPages& pages) {
  QPainter painter(&device);
  if (!painter.isActive()) return;
  QAbstractTextDocumentLayout* layout = document.documentLayout();
  const int count = document.pageCount();
  for (int page = 1; page <= count; ++page) {
    if (page > 1 && !device.newPage()) return;
    const QRectF view(0, (page - 1) * pages.body.height(), pages.body.width(),
                      pages.body.height());
    painter.save();
    painter.translate(pages.body.left(), pages.body.top() - view.top());
    painter.setClipRect(view);
    QAbstractTextDocumentLayout::PaintContext context;
    context.clip = view;
    // Black text whatever the palette (a white system text colour prints nothing).
    context.palette.setColor(QPalette::Text, Qt::black);
    layout->draw(&painter, context);
    painter.setClipping(false);
    painter.setFont(document.defaultFont());
    const QString number = QString::number(page);
    painter.drawText(
        qRound(pages.pageNumberPos.x() - painter.fontMetrics().horizontalAdvance(number)),
        qRound(pages.pageNumberPos.y() + view.top()), number);
    painter.restore();
  }
}

}  // namespace deniable::ui
