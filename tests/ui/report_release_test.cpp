// SPDX-License-Identifier: Apache-2.0
// The release report: what the shareable and the owner version contain, that the shareable
// one holds no real data, atomic writing that never replaces the input, and SHA-256.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <set>
#include <utility>

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QPdfWriter>
#include <QStandardPaths>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>

#include "tests/ui/memory_pdf.h"
#include "tests/ui/review_test_fixture.h"
#include "ui/report/release_report.h"
#include "ui/report/print_pages.h"
#include "ui/report/report_pdf.h"
#include "ui/review/network_facts.h"
#include "ui/review/privacy_facts.h"
#include "ui/review/review_format.h"
#include "ui/review/risk_facts.h"

namespace deniable::ui {
namespace {

const QString kInputHash(64, QLatin1Char('1'));
const QString kCsvHash(64, QLatin1Char('2'));
const QString kDescriptionHash(64, QLatin1Char('3'));

ReportContext DemoContext() {
  ReportContext context;
  context.input_path = QString::fromStdString(test_support::DemoDatasetPath());
  context.input_sha256 = kInputHash;
  context.outputs = {{QStringLiteral("Synthetic data"), QStringLiteral("/data/out/synthetic.csv"), kCsvHash},
                     {QStringLiteral("Description file"), QStringLiteral("/data/out/description.json"),
                      kDescriptionHash}};
  context.cli_command = QStringLiteral("deniable-cli synthesize adult_sample.csv --epsilon 1");
  context.created = QDateTime(QDate(2024, 5, 17), QTime(9, 30), Qt::UTC);
  return context;
}

QString withoutImages(QString html) {
  return html.remove(QRegularExpression(QStringLiteral("data:image/png;base64,[A-Za-z0-9+/=]+")));
}

int imageCount(const QString& html) { return static_cast<int>(html.count(QStringLiteral("data:image/png;base64,"))); }

QString readFile(const QString& path) {
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
  return QString::fromUtf8(file.readAll());
}

TEST(ReleaseReportTest, ShareableReportHoldsTheGuaranteesLedgerAndOutputHashes) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const QString path = QString::fromStdString(test_support::TempDir()) + QStringLiteral("/report.html");
  ASSERT_TRUE(WriteReleaseReport(path, *data, DemoContext()));
  const QString html = readFile(path);
  ASSERT_TRUE(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
  const PrivacyFacts facts = ExtractPrivacyFacts(*data);
  EXPECT_TRUE(html.contains(QStringLiteral("Whole release: %1").arg(formatCost(facts.release)).toHtmlEscaped()));
  EXPECT_TRUE(html.contains(facts.statement.toHtmlEscaped()));
  // The ledger: every entry and the total.
  for (const LedgerEntry& entry : facts.entries) {
    EXPECT_TRUE(html.contains(readableLedgerLabel(entry.label, AttributeNames(data->description)).toHtmlEscaped()))
        << entry.label;
  }
  EXPECT_TRUE(html.contains(QStringLiteral("<td class=\"num\">%1</td><td class=\"num\">%2</td>")
                                .arg(formatEpsilon(facts.ledger_total.epsilon),
                                     formatDelta(facts.ledger_total.delta))));
  // Outputs by file name and hash; the network picture; provenance of every domain.
  EXPECT_TRUE(html.contains(kCsvHash));
  EXPECT_TRUE(html.contains(kDescriptionHash));
  EXPECT_TRUE(html.contains(QStringLiteral("synthetic.csv")));
  EXPECT_FALSE(html.contains(QStringLiteral("/data/out")));
  EXPECT_EQ(imageCount(html), 1);
  for (const ColumnDomain& domain : data->description.domains) {
    EXPECT_TRUE(html.contains(QString::fromStdString(domain.provenance).toHtmlEscaped())) << domain.name;
  }
  EXPECT_TRUE(html.contains(QStringLiteral("NOT a private release")));  // seeded run
}

TEST(ReleaseReportTest, ShareableReportHoldsNoRealData) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const QString html = withoutImages(BuildReleaseReportHtml(*data, DemoContext()));
  // No owner part, no input identity (a hash of the input lets an adversary test guesses).
  EXPECT_FALSE(html.contains(QStringLiteral("id=\"owner-only\"")));
  EXPECT_FALSE(html.contains(QStringLiteral("Owner only")));
  EXPECT_FALSE(html.contains(kInputHash));
  EXPECT_FALSE(html.contains(QStringLiteral("adult_sample")));
  EXPECT_FALSE(html.contains(QStringLiteral("deniable-cli")));
  // No utility metrics (exact functions of the real data) and no real row count.
  EXPECT_FALSE(html.contains(QStringLiteral("TVD")));
  EXPECT_FALSE(html.contains(formatCount(data->real->num_rows())));
  const RawTable& real = *data->real;
  // No real values: fnlwgt (almost unique per row) of the first 200 rows ...
  const RawColumn& fnlwgt = real.columns[static_cast<std::size_t>(real.ColumnIndex("fnlwgt"))];
  for (std::size_t row = 0; row < 200; ++row) {
    const QString value = QString::fromStdString(fnlwgt.dictionary[fnlwgt.codes[row]]);
    EXPECT_FALSE(html.contains(QRegularExpression(QStringLiteral("\\b%1\\b").arg(value)))) << value.toStdString();
  }
  // ... no real category outside the DP domains (e.g. rare countries) ...
  for (const char* name : {"native-country", "occupation", "education"}) {
    const RawColumn& column = real.columns[static_cast<std::size_t>(real.ColumnIndex(name))];
    const auto& domain = *std::find_if(data->description.domains.begin(), data->description.domains.end(),
                                       [&](const ColumnDomain& d) { return d.name == name; });
    for (const std::string& value : column.dictionary) {
      if (std::find(domain.categories.begin(), domain.categories.end(), value) != domain.categories.end()) continue;
      EXPECT_FALSE(html.contains(QString::fromStdString(value).toHtmlEscaped())) << name << ": " << value;
    }
  }
  // ... and no bin edges taken from the real min and max (the MetricReport's bins).
  for (const ColumnComparison& column : data->metrics.columns) {
    if (column.kind != ComparisonKind::kBinned) continue;
    for (const std::string& label : column.histogram.labels) {
      EXPECT_FALSE(html.contains(QString::fromStdString(label).toHtmlEscaped())) << label;
    }
  }
}

TEST(ReleaseReportTest, OwnerReportAddsTheMarkedOwnerOnlyPart) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  ReportOptions options;
  options.audience = ReportAudience::kOwner;
  options.histograms = 3;
  const QString html = BuildReleaseReportHtml(*data, DemoContext(), options);
  const qsizetype owner = html.indexOf(QStringLiteral("<section id=\"owner-only\" class=\"owner-only\">"));
  ASSERT_GT(owner, 0);
  const QString shareable = html.left(owner);
  const QString ownerPart = html.mid(owner);
  EXPECT_TRUE(ownerPart.contains(QStringLiteral("Owner only — contains statistics of the real data")));
  // The input's identity and the utility metrics appear in the owner part only.
  EXPECT_FALSE(shareable.contains(kInputHash));
  EXPECT_TRUE(ownerPart.contains(kInputHash));
  EXPECT_TRUE(ownerPart.contains(QString::fromStdString(test_support::DemoDatasetPath())));
  EXPECT_TRUE(ownerPart.contains(QStringLiteral("deniable-cli synthesize adult_sample.csv --epsilon 1")));
  EXPECT_TRUE(ownerPart.contains(formatFraction(data->metrics.mean_column_tvd)));
  EXPECT_TRUE(ownerPart.contains(formatFraction(*data->metrics.mean_pair_tvd)));
  // Network (shareable), 3 histograms and the two heatmap pictures (owner).
  EXPECT_EQ(imageCount(shareable), 1);
  EXPECT_EQ(imageCount(ownerPart), 3 + 2);
}

TEST(ReleaseReportTest, DeniableReportLeadsWithTheWholeReleaseAndLabelsPerRecordFigures) {
  auto data = test_support::DemoDeniableReviewData(5, 11);
  ASSERT_NE(data, nullptr);
  const QString html = BuildReleaseReportHtml(*data, DemoContext());
  const qsizetype whole = html.indexOf(QStringLiteral("Whole release: ε = 4.5, δ = 2×10⁻⁷"));
  const qsizetype perRecord = html.indexOf(QStringLiteral("per record, NOT the whole release"));
  ASSERT_GT(whole, 0);
  ASSERT_GT(perRecord, whole);
  EXPECT_TRUE(html.contains(QStringLiteral("2,600 / 2,000 (pass rate 76.9 %)")));
  EXPECT_TRUE(html.contains(QStringLiteral("σ order:")));
  EXPECT_TRUE(html.contains(QStringLiteral("ω from 5 to 11")));
}

TEST(ReleaseReportTest, RefusesToWriteOverTheInputAndLeavesNoFileOnFailure) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const std::string dir = test_support::TempDir();
  const std::string input = dir + "/input.csv";
  {
    QFile file(QString::fromStdString(input));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("a,b\n1,2\n");
  }
  ReportContext context = DemoContext();
  context.input_path = QString::fromStdString(input);
  const Status over = WriteReleaseReport(QString::fromStdString(input), *data, context);
  ASSERT_FALSE(over.has_value());
  EXPECT_EQ(over.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(readFile(QString::fromStdString(input)), QStringLiteral("a,b\n1,2\n"));

  const std::string missingDir = dir + "/no/such/dir/report.html";
  const Status nowhere = WriteReleaseReport(QString::fromStdString(missingDir), *data, context);
  ASSERT_FALSE(nowhere.has_value());
  EXPECT_EQ(nowhere.error().code, ErrorCode::kIo);
  EXPECT_FALSE(std::filesystem::exists(missingDir));
}

TEST(ReleaseReportTest, FileSha256IsTheStandardDigest) {
  const std::string path = test_support::TempDir() + "/abc.txt";
  {
    QFile file(QString::fromStdString(path));
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("abc");
  }
  auto hash = FileSha256(QString::fromStdString(path));
  ASSERT_TRUE(hash.has_value());
  EXPECT_EQ(hash.value(), QStringLiteral("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
  auto missing = FileSha256(QString::fromStdString(path + ".absent"));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code, ErrorCode::kIo);
  EXPECT_NE(missing.error().message.find("abc.txt.absent"), std::string::npos);
}

TEST(ReleaseReportTest, WritesBothVersionsUnderTmpForALook) {
  auto data = test_support::DemoDeniableReviewData(4, 7);
  ASSERT_NE(data, nullptr);
  const QString directory = QDir::temp().filePath(QStringLiteral("deniable-review-shots"));
  QDir().mkpath(directory);
  ReportOptions owner;
  owner.audience = ReportAudience::kOwner;
  ASSERT_TRUE(WriteReleaseReport(directory + QStringLiteral("/report-owner.html"), *data, DemoContext(), owner));
  ASSERT_TRUE(WriteReleaseReport(directory + QStringLiteral("/report-shareable.html"), *data, DemoContext()));
}

}  // namespace
}  // namespace deniable::ui

namespace deniable::ui {
namespace {

// Issue 11 part 4: the shareable report gets the verdict on the guarantee only (no utility,
// no δ-versus-1/n, which would reveal the real row count); the owner part the full verdict.
TEST(ReleaseReportTest, VerdictIsGuaranteeOnlyWhenShareable) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const QString shareable = withoutImages(BuildReleaseReportHtml(*data, DemoContext()));
  EXPECT_TRUE(shareable.contains(QStringLiteral("Verdict on the guarantee")));
  EXPECT_TRUE(shareable.contains(QStringLiteral("Formal guarantee: Not fit to share")));
  EXPECT_TRUE(shareable.contains(
      QStringLiteral("Not a private release: it was made with a fixed seed.")));
  EXPECT_FALSE(shareable.contains(QStringLiteral("perfect independent model")));
  EXPECT_FALSE(shareable.contains(QStringLiteral("1/n")));
  ReportOptions options;
  options.audience = ReportAudience::kOwner;
  const QString owner = BuildReleaseReportHtml(*data, DemoContext(), options);
  EXPECT_TRUE(owner.contains(QStringLiteral("Verdict (owner only: utility and guarantee)")));
  EXPECT_TRUE(owner.contains(QStringLiteral("a perfect independent model scores")));
}

}  // namespace
}  // namespace deniable::ui

namespace deniable::ui {
namespace {

// Issue 11 part 4: the same report as a PDF (ui/report/report_pdf.h).

int pdfPageCount(const QByteArray& pdf) {
  return static_cast<int>(pdf.count("/Type /Page") - pdf.count("/Type /Pages"));
}

int pdfImageCount(const QByteArray& pdf) { return static_cast<int>(pdf.count("/Subtype /Image")); }

// The text of every page (poppler's pdftotext), or an empty list when it is not installed.
QStringList pdfPages(const QString& path) {
  const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdftotext"));
  if (tool.isEmpty()) return {};
  QProcess process;
  process.start(tool, {QStringLiteral("-layout"), path, QStringLiteral("-")});
  if (!process.waitForFinished(60000) || process.exitCode() != 0) {
    ADD_FAILURE() << "pdftotext failed on " << path.toStdString();
    return {};
  }
  QStringList pages = QString::fromUtf8(process.readAllStandardOutput()).split(QLatin1Char('\f'));
  if (!pages.isEmpty() && pages.back().trimmed().isEmpty()) pages.pop_back();
  return pages;
}

QString collapseSpaces(QString text) {
  return text.replace(QRegularExpression(QStringLiteral("\\s+")), QStringLiteral(" "));
}

TEST(ReleaseReportPdfTest, PdfHoldsTheReportsTextImagesAndNumberedA4Pages) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const QString path = QString::fromStdString(test_support::TempDir()) + QStringLiteral("/report.PDF");
  ASSERT_EQ(ReportFormatOf(path), ReportFormat::kPdf);
  ASSERT_TRUE(WriteReleaseReport(path, *data, DemoContext()));
  QFile file(path);
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray bytes = file.readAll();
  ASSERT_TRUE(bytes.startsWith("%PDF-"));
  const int pages = pdfPageCount(bytes);
  EXPECT_EQ(bytes.count("/MediaBox [0 0 595.000000 842.000000]"), pages);  // A4 in points
  EXPECT_GE(pages, 2);
  EXPECT_EQ(pdfImageCount(bytes), imageCount(BuildReleaseReportHtml(*data, DemoContext())));

  const QStringList text = pdfPages(path);
  if (text.isEmpty()) GTEST_SKIP() << "pdftotext (poppler-utils) is not installed: text unchecked";
  ASSERT_EQ(text.size(), pages);
  const QString all = collapseSpaces(text.join(QLatin1Char(' ')));
  const PrivacyFacts facts = ExtractPrivacyFacts(*data);
  EXPECT_TRUE(all.contains(QStringLiteral("Synthetic data release report Shareable")));
  EXPECT_TRUE(all.contains(QStringLiteral("Whole release: %1").arg(formatCost(facts.release))));
  EXPECT_TRUE(all.contains(QStringLiteral("Privacy ledger")));
  EXPECT_TRUE(all.contains(QStringLiteral("Total of the ledger")));
  EXPECT_TRUE(all.contains(kCsvHash)) << all.toStdString();
  EXPECT_TRUE(all.contains(kDescriptionHash));
  EXPECT_FALSE(all.contains(QStringLiteral("Owner only")));
  EXPECT_FALSE(all.contains(kInputHash));
  // Each page ends with its number.
  for (int page = 0; page < pages; ++page) {
    EXPECT_TRUE(text[page].trimmed().endsWith(QString::number(page + 1))) << "page " << page + 1;
  }
}

TEST(ReleaseReportPdfTest, OwnerPartStartsOnANewPage) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  const QString dir = QString::fromStdString(test_support::TempDir());
  ReportOptions options;
  options.audience = ReportAudience::kOwner;
  options.histograms = 2;
  ASSERT_TRUE(WriteReleaseReport(dir + QStringLiteral("/owner.pdf"), *data, DemoContext(), options));
  ASSERT_TRUE(WriteReleaseReport(dir + QStringLiteral("/shareable.pdf"), *data, DemoContext()));
  QFile owner(dir + QStringLiteral("/owner.pdf"));
  QFile shareable(dir + QStringLiteral("/shareable.pdf"));
  ASSERT_TRUE(owner.open(QIODevice::ReadOnly) && shareable.open(QIODevice::ReadOnly));
  const QByteArray ownerBytes = owner.readAll();
  const QByteArray shareableBytes = shareable.readAll();
  EXPECT_GT(pdfPageCount(ownerBytes), pdfPageCount(shareableBytes));
  EXPECT_EQ(pdfImageCount(ownerBytes), 1 + 2 + 2);  // network; 2 histograms, 2 heatmap pictures

  const QStringList text = pdfPages(dir + QStringLiteral("/owner.pdf"));
  if (text.isEmpty()) GTEST_SKIP() << "pdftotext (poppler-utils) is not installed: text unchecked";
  int ownerPage = -1;
  for (int page = 0; page < text.size(); ++page) {
    if (text[page].contains(QStringLiteral("Owner's review"))) {
      ownerPage = page;
      break;
    }
  }
  ASSERT_GT(ownerPage, 0);
  EXPECT_TRUE(text[ownerPage].trimmed().startsWith(QStringLiteral("Owner's review")))
      << text[ownerPage].left(200).toStdString();
  EXPECT_TRUE(collapseSpaces(text[ownerPage]).contains(kInputHash));
  for (int page = 0; page < ownerPage; ++page) EXPECT_FALSE(text[page].contains(kInputHash));
}

TEST(ReleaseReportPdfTest, PrintHtmlKeepsEveryImageAsAResourceNoWiderThanThePage) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  ReportOptions options;
  options.audience = ReportAudience::kOwner;
  const QString html = BuildReleaseReportHtml(*data, DemoContext(), options);
  const QString print = ReleaseReportPrintHtml(html);
  EXPECT_FALSE(print.contains(QStringLiteral("data:image")));
  EXPECT_FALSE(print.contains(QStringLiteral("<section")));
  EXPECT_FALSE(print.contains(QStringLiteral("var(--")));
  const QRegularExpression image(QStringLiteral("<img src=\"report-image:(\\d+)\" alt=\"[^\"]*\" width=\"(\\d+)\">"));
  int count = 0;
  for (auto it = image.globalMatch(print); it.hasNext(); ++count) {
    const QRegularExpressionMatch match = it.next();
    EXPECT_EQ(match.captured(1).toInt(), count);
    EXPECT_LE(match.captured(2).toInt(), 620);
  }
  EXPECT_EQ(count, imageCount(html));
  // The text is the HTML report's: the same headline, hashes and owner banner.
  EXPECT_TRUE(print.contains(kCsvHash));
  EXPECT_TRUE(print.contains(kInputHash));
  EXPECT_TRUE(print.contains(QStringLiteral("Owner only — contains statistics of the real data")));
}

// #12: long tables in the PDF. A marginals run on the 15-column demo has a ledger of about
// 80 entries: it spans pages, breaks between rows (never inside one), repeats its header row on
// each page, and its heading stays with its first row; the pages printed are the document's.
int PageOf(const QTextDocument& document, qreal y) {
  return static_cast<int>(std::floor(y / document.pageSize().height()));
}

// The first and the last page of a table row's text.
std::pair<int, int> RowPages(const QTextDocument& document, const QTextTable* table, int row) {
  qreal top = std::numeric_limits<qreal>::max();
  qreal bottom = std::numeric_limits<qreal>::lowest();
  for (int column = 0; column < table->columns(); ++column) {
    const QTextTableCell cell = table->cellAt(row, column);
    if (cell.row() != row || cell.column() != column) continue;
    top = std::min(top, document.documentLayout()->blockBoundingRect(
                            cell.firstCursorPosition().block()).top());
    bottom = std::max(bottom, document.documentLayout()->blockBoundingRect(
                                  cell.lastCursorPosition().block()).bottom());
  }
  return {PageOf(document, top), PageOf(document, bottom - 1)};
}

TEST(ReleaseReportPdfTest, LongTablesBreakBetweenRowsUnderARepeatedHeader) {
  auto data = test_support::DemoReviewData(SynthesisMode::kMarginals);
  ASSERT_NE(data, nullptr);
  ReportOptions options;
  options.audience = ReportAudience::kOwner;
  const QString html = BuildReleaseReportHtml(*data, DemoContext(), options);
  test_support::MemoryPdf pdf;
  PrintPages pages;
  const std::unique_ptr<QTextDocument> document =
      ReleaseReportPrintDocument(html, pdf.writer, &pages);
  const int pageCount = document->pageCount();

  int ledgerParts = 0;
  int ledgerRows = 0;
  std::set<int> ledgerPages;
  const QString ledgerHeader = QStringLiteral("What was released");
  for (QTextFrame* frame : document->rootFrame()->childFrames()) {
    auto* table = qobject_cast<QTextTable*>(frame);
    if (table == nullptr) continue;
    const bool ledger = table->cellAt(0, 0).firstCursorPosition().block().text() == ledgerHeader;
    const int header = table->format().headerRowCount();
    if (ledger) {
      ++ledgerParts;
      EXPECT_EQ(header, 1);  // <thead>: QTextDocument repeats it on each page
      ledgerRows += table->rows() - header;
      // Each part starts its page (the first after its heading): the header row is at the top.
      ledgerPages.insert(RowPages(*document, table, 0).first);
    }
    for (int row = header; row < table->rows(); ++row) {
      const auto [first, last] = RowPages(*document, table, row);
      EXPECT_EQ(first, last) << "row " << row << " of a table is cut by the end of page "
                             << first + 1;
    }
    // The last row (the ledger's total) shares its page with the row above it.
    if (table->rows() - header >= 2) {
      EXPECT_EQ(RowPages(*document, table, table->rows() - 1).first,
                RowPages(*document, table, table->rows() - 2).second)
          << "the last row of a table stands alone on a page";
    }
  }
  const PrivacyFacts facts = ExtractPrivacyFacts(*data);
  EXPECT_EQ(ledgerRows, static_cast<int>(facts.entries.size()) + 1);  // and the total
  EXPECT_GE(ledgerParts, 3);
  EXPECT_EQ(static_cast<int>(ledgerPages.size()), ledgerParts);
  // The heading "Privacy ledger" is on the page of the ledger's first row; every block with
  // text is laid out (QTextDocument leaves a block it had not reached empty after a change).
  for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
    if (!block.text().trimmed().isEmpty()) {
      EXPECT_GT(document->documentLayout()->blockBoundingRect(block).height(), 0)
          << block.text().left(40).toStdString();
    }
    if (block.text() != QStringLiteral("Privacy ledger")) continue;
    EXPECT_EQ(PageOf(*document, document->documentLayout()->blockBoundingRect(block).top()),
              *ledgerPages.begin());
  }

  PrintPaginated(*document, pdf.writer, pages);
  pdf.buffer.close();
  EXPECT_EQ(pdfPageCount(pdf.bytes), pageCount);
  // Splitting leaves the end of a page empty, not whole pages: at most one page per part.
  EXPECT_LE(pageCount, 10 + ledgerParts) << pageCount;
}

// A long table's last row (the ledger's total) never stands alone at the top of a page: for
// every length from one to three pages of rows, the row above it goes with it.
TEST(ReleaseReportPdfTest, ATablesLastRowNeverStandsAloneOnAPage) {
  int widows_avoided = 0;
  for (int rows = 40; rows <= 100; ++rows) {  // 47 and 95 rows left the total alone
    QString html = QStringLiteral("<h2>Privacy ledger</h2><table><thead><tr><th>What was "
                                  "released</th><th>ε</th></tr></thead>");
    for (int r = 0; r + 1 < rows; ++r) {
      html += QStringLiteral("<tr><td>entry %1</td><td>0.01</td></tr>").arg(r);
    }
    html += QStringLiteral("<tr><td>Total</td><td>1</td></tr></table>");
    test_support::MemoryPdf pdf;
    const std::unique_ptr<QTextDocument> document = ReleaseReportPrintDocument(html, pdf.writer);
    std::vector<QTextTable*> parts;
    for (QTextFrame* frame : document->rootFrame()->childFrames()) {
      if (auto* table = qobject_cast<QTextTable*>(frame)) parts.push_back(table);
    }
    ASSERT_FALSE(parts.empty());
    QTextTable* last = parts.back();
    const int header = last->format().headerRowCount();
    ASSERT_GE(last->rows() - header, 2) << rows << " rows: the total is alone in its part";
    EXPECT_EQ(RowPages(*document, last, last->rows() - 1).first,
              RowPages(*document, last, last->rows() - 2).second)
        << rows << " rows: the total stands alone on a page";
    EXPECT_EQ(last->cellAt(last->rows() - 1, 0).firstCursorPosition().block().text(),
              QStringLiteral("Total"));
    // A part of two body rows after a split is this rule at work.
    if (parts.size() > 1 && last->rows() - header == 2) ++widows_avoided;
  }
  EXPECT_GT(widows_avoided, 0);  // the lengths tried include the case
}

// The Disclosure risk analysis goes into the owner part, never into the shareable report.
TEST(ReleaseReportTest, RiskAnalysisAppearsInTheOwnerPartOnly) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  RiskRequest request;
  request.table = data->real;
  request.options = riskOptions(QStringLiteral("income"), {QStringLiteral("sex"), QStringLiteral("race")},
                                data->settings.epsilon, 10, 0.1, 1.05);
  request.epsilon = data->settings.epsilon;
  NullProgress progress;
  auto risk = computeRisk(request, progress);
  ASSERT_TRUE(risk.has_value()) << risk.error().message;
  const RiskAnalysis& analysis = *risk.value();
  const QString verdict = riskVerdict(analysis, data->settings.epsilon).toHtmlEscaped();
  const QString scope = riskScope(analysis).toHtmlEscaped();

  ReportOptions shareableOptions;
  shareableOptions.risk = risk.value();  // handed over, but a shareable report never shows it
  const QString shareable = withoutImages(BuildReleaseReportHtml(*data, DemoContext(), shareableOptions));
  EXPECT_FALSE(shareable.contains(QStringLiteral("Disclosure risk")));
  EXPECT_FALSE(shareable.contains(verdict));
  EXPECT_FALSE(shareable.contains(scope));
  EXPECT_EQ(imageCount(BuildReleaseReportHtml(*data, DemoContext(), shareableOptions)), 1);

  ReportOptions ownerOptions = shareableOptions;
  ownerOptions.audience = ReportAudience::kOwner;
  ownerOptions.histograms = 2;
  const QString html = BuildReleaseReportHtml(*data, DemoContext(), ownerOptions);
  const qsizetype owner = html.indexOf(QStringLiteral("<section id=\"owner-only\" class=\"owner-only\">"));
  ASSERT_GT(owner, 0);
  EXPECT_FALSE(html.left(owner).contains(QStringLiteral("Disclosure risk")));
  const QString part = html.mid(owner);
  EXPECT_TRUE(part.contains(QStringLiteral("<h3>Disclosure risk (McClure &amp; Reiter)</h3>")));
  EXPECT_TRUE(part.contains(verdict));
  EXPECT_TRUE(part.contains(scope));
  const QString recommended = analysis.report.recommended_epsilon
                                  ? formatEpsilon(*analysis.report.recommended_epsilon)
                                  : QStringLiteral("none of the ε tested");
  EXPECT_TRUE(part.contains(QStringLiteral("<th scope=\"row\">Recommended ε (largest with every "
                                           "record inside)</th><td>%1</td>")
                                .arg(recommended)));
  const std::int64_t outside = analysis.shown().records_outside;
  EXPECT_TRUE(part.contains(QStringLiteral("%1 of %2 (%3)")
                                .arg(formatCount(static_cast<std::uint64_t>(outside)),
                                     formatCount(data->real->num_rows()),
                                     formatPercent(static_cast<double>(outside) /
                                                   static_cast<double>(data->real->num_rows())))));
  // One row per ε tested in the levels table.
  for (const EpsilonRisk& level : analysis.report.per_epsilon) {
    EXPECT_TRUE(part.contains(QStringLiteral("<tr><td>%1</td><td>%2</td>")
                                  .arg(formatEpsilon(level.epsilon),
                                       formatCount(static_cast<std::uint64_t>(level.records_outside)))))
        << level.epsilon;
  }
  // 2 histograms, 2 heatmap pictures and the RR × R plot.
  EXPECT_EQ(imageCount(part), 2 + 2 + 1);
}

TEST(ReleaseReportTest, MarginalsModeIsExplained) {
  auto data = test_support::DemoReviewData(SynthesisMode::kMarginals);
  ASSERT_NE(data, nullptr);
  const QString html = withoutImages(BuildReleaseReportHtml(*data, DemoContext()));
  EXPECT_TRUE(html.contains(QStringLiteral(
      "marginals: noisy low-dimensional marginals chosen by MST or AIM (under zero-concentrated "
      "DP), from which Private-PGM estimates a graphical model that the synthetic records are "
      "sampled from.")));
  // The model section describes the measured marginals, not a Bayesian network.
  const auto& measured = data->description.parameters["model"]["measured"];
  ASSERT_TRUE(measured.is_array());
  EXPECT_TRUE(html.contains(QStringLiteral("a graphical model (Private-PGM) fitted to %1 noisy "
                                           "marginals that AIM chose")
                                .arg(measured.size())))
      << html.toStdString().substr(0, 2000);
  EXPECT_FALSE(html.contains(QStringLiteral("a Bayesian network with")));
  EXPECT_TRUE(html.contains(QStringLiteral("The measured marginals")));
  // The fitted model's numbers stay in the description file, out of the Parameters table.
  EXPECT_FALSE(html.contains(QStringLiteral("error_bounds"))) << "the model's JSON in the report";
  EXPECT_FALSE(html.contains(QStringLiteral("&quot;clique&quot;")));
  EXPECT_TRUE(html.contains(QStringLiteral("Marginals mechanism (AIM or MST)")));
  // The pairs made exact (parameters.model.consistent_pairs) are named in the Model section.
  auto with_pair = std::make_shared<ReviewData>(*data);
  const std::vector<std::string> names = AttributeNames(with_pair->description);
  with_pair->description.parameters["model"]["consistent_pairs"] =
      nlohmann::json::array({{{"parent", 0}, {"child", 1}, {"lambda", 0.9}}});
  const QString paired = withoutImages(BuildReleaseReportHtml(*with_pair, DemoContext()));
  EXPECT_TRUE(paired.contains(
      QStringLiteral("Made exact in every synthetic row (a near-function in the fitted model, "
                     "such as a code and its label): %1 → %2.")
          .arg(QString::fromStdString(names[0]), QString::fromStdString(names[1]))
          .toHtmlEscaped()))
      << paired.toStdString().substr(0, 3000);
  EXPECT_EQ(html.contains(QStringLiteral("Made exact")),
            data->description.parameters["model"].contains("consistent_pairs"));
}

}  // namespace
}  // namespace deniable::ui
