// SPDX-License-Identifier: Apache-2.0
// ExportFiles: writes exactly the reviewed table, never over the input, all or nothing.
#include "ui/tasks/export_job.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <gtest/gtest.h>

#include "tests/ui/ui_test_support.h"

namespace deniable::ui {
namespace {

// A Progress whose Cancel has been pressed.
class CancelledProgress final : public Progress {
 public:
  void Report(double, std::string_view) override {}
  bool IsCancelled() const override { return true; }
};

std::shared_ptr<const RunRecord> DemoRun(std::size_t rows) {
  const auto data = test_support::loadDemo();
  NullProgress progress;
  RunRequest request;
  request.data = data;
  request.schema = data->schema;
  request.settings.model.mode = SynthesisMode::kIndependent;
  request.settings.reproducible = true;  // a fixed seed keeps the test deterministic
  request.settings.seed = 7;
  request.rows = rows;
  auto run = RunSynthesis(request, progress);
  EXPECT_TRUE(run.has_value()) << (run ? "" : run.error().message);
  return run.value();
}

class ExportJobTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { run_ = DemoRun(321); }
  static void TearDownTestSuite() { run_.reset(); }
  static std::shared_ptr<const RunRecord> run_;
};
std::shared_ptr<const RunRecord> ExportJobTest::run_;

TEST_F(ExportJobTest, WritesTheReviewedTableAndFingerprintsIt) {
  QTemporaryDir dir;
  ExportRequest request;
  request.run = run_;
  request.csv_path = dir.filePath(QStringLiteral("out.csv"));
  request.description_path = dir.filePath(QStringLiteral("out.json"));
  request.text_files.push_back({dir.filePath(QStringLiteral("note.txt")), QStringLiteral("note"), "hello\n"});
  NullProgress progress;
  auto report = ExportFiles(request, progress);
  ASSERT_TRUE(report.has_value()) << report.error().message;
  ASSERT_EQ(report->files.size(), 3u);
  const RawTable written = test_support::readCsvOrFail(request.csv_path);
  const RawTable& reviewed = *run_->release->synthetic;
  ASSERT_EQ(written.num_rows(), 321u);
  ASSERT_EQ(written.num_columns(), reviewed.num_columns());
  for (std::size_t c = 0; c < reviewed.num_columns(); ++c) {
    for (std::size_t r = 0; r < reviewed.num_rows(); ++r) {
      const auto& a = reviewed.columns[c];
      const auto& b = written.columns[c];
      const std::string left = a.is_missing(r) ? "" : a.dictionary[a.codes[r]];
      const std::string right = b.is_missing(r) ? "" : b.dictionary[b.codes[r]];
      ASSERT_EQ(left, right) << "row " << r << " column " << a.name;
    }
  }
  EXPECT_EQ(report->files[2].bytes, 6);
  EXPECT_EQ(report->files[2].sha256,
            QByteArray("5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"));
  EXPECT_FALSE(report->input_changed);
  // No staging files are left behind.
  EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 3);
}

TEST_F(ExportJobTest, RefusesToWriteOverTheInput) {
  ExportRequest request;
  request.run = run_;
  request.csv_path = run_->request.data->path;
  NullProgress progress;
  auto report = ExportFiles(request, progress);
  ASSERT_FALSE(report.has_value());
  EXPECT_EQ(report.error().code, ErrorCode::kInvalidArgument);
  auto hash = Sha256OfFile(run_->request.data->path, progress);
  ASSERT_TRUE(hash.has_value());
  EXPECT_EQ(hash.value(), run_->request.data->sha256);
}

TEST_F(ExportJobTest, RefusesTwoOutputsWithTheSameName) {
  QTemporaryDir dir;
  ExportRequest request;
  request.run = run_;
  request.csv_path = dir.filePath(QStringLiteral("same"));
  request.description_path = dir.filePath(QStringLiteral("same"));
  NullProgress progress;
  auto report = ExportFiles(request, progress);
  ASSERT_FALSE(report.has_value());
  EXPECT_EQ(report.error().code, ErrorCode::kInvalidArgument);
  EXPECT_TRUE(QDir(dir.path()).isEmpty());
}

TEST_F(ExportJobTest, CancelledExportWritesNothingAndKeepsOldFiles) {
  QTemporaryDir dir;
  const QString csv = dir.filePath(QStringLiteral("out.csv"));
  {
    QFile old(csv);
    ASSERT_TRUE(old.open(QIODevice::WriteOnly));
    old.write("previous release\n");
  }
  ExportRequest request;
  request.run = run_;
  request.csv_path = csv;
  request.description_path = dir.filePath(QStringLiteral("out.json"));
  CancelledProgress cancelled;
  auto report = ExportFiles(request, cancelled);
  ASSERT_FALSE(report.has_value());
  EXPECT_EQ(report.error().code, ErrorCode::kCancelled);
  EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{QStringLiteral("out.csv")});
  QFile old(csv);
  ASSERT_TRUE(old.open(QIODevice::ReadOnly));
  EXPECT_EQ(old.readAll(), QByteArray("previous release\n"));
}

TEST_F(ExportJobTest, AFailedFileLeavesNoOtherFile) {
  QTemporaryDir dir;
  ExportRequest request;
  request.run = run_;
  request.csv_path = dir.filePath(QStringLiteral("out.csv"));
  request.description_path = dir.filePath(QStringLiteral("missing-folder/out.json"));
  NullProgress progress;
  auto report = ExportFiles(request, progress);
  ASSERT_FALSE(report.has_value());
  EXPECT_EQ(report.error().code, ErrorCode::kIo) << report.error().message;
  EXPECT_TRUE(QDir(dir.path()).isEmpty());
}

}  // namespace
}  // namespace deniable::ui
