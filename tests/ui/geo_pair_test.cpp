// SPDX-License-Identifier: Apache-2.0
// Geo pairs in the GUI: the Columns step shows an inferred latitude/longitude pair in the
// column's details, where one click undoes it (one undo step) and another declares it again;
// the Review's network names the pair's attribute "lat + long".
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QGraphicsItem>
#include <QLabel>
#include <QTemporaryDir>
#include <QUndoStack>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "tests/ui/review_test_fixture.h"
#include "tests/ui/ui_test_support.h"
#include "ui/pages/columns_page.h"
#include "ui/review/network_scene.h"
#include "ui/review/network_view.h"
#include "ui/review/review_data.h"
#include "ui/session/session.h"
#include "ui/widgets/geo_pair_panel.h"

namespace deniable::ui {
namespace {

// 3,000 stops in two clusters and a kind; the names and ranges make lat/long a geo pair.
QString WriteStops(const QTemporaryDir& dir) {
  const QString path = dir.filePath(QStringLiteral("stops.csv"));
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::WriteOnly));
  file.write("kind,lat,long\n");
  for (int r = 0; r < 3000; ++r) {
    char line[96];
    const bool north = r % 3 != 0;
    std::snprintf(line, sizeof line, "%s,%.5f,%.5f\n", north ? "traffic" : "suspicious",
                  (north ? 44.95 : 44.90) + 0.0001 * (r % 97), -93.25 + 0.0001 * (r % 89));
    file.write(line);
  }
  return path;
}

class GeoPairColumnsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.isValid());
    LoadRequest request;
    request.path = WriteStops(dir_);
    NullProgress progress;
    auto data = LoadData(request, progress);
    ASSERT_TRUE(data.has_value()) << data.error().message;
    session_.setData(data.value());
    page_ = std::make_unique<ColumnsPage>(&session_);
    panel_ = page_->findChild<GeoPairPanel*>();
    ASSERT_NE(panel_, nullptr);
  }
  int Index(const char* name) const { return session_.schema().ColumnIndex(name); }

  QTemporaryDir dir_;
  Session session_;
  std::unique_ptr<ColumnsPage> page_;
  GeoPairPanel* panel_ = nullptr;
};

TEST_F(GeoPairColumnsTest, TheInferredPairIsShownOnBothColumnsAndUndoneInOneStep) {
  ASSERT_EQ(session_.schema().columns[static_cast<std::size_t>(Index("lat"))].geo_longitude, "long");
  page_->selectColumn(Index("lat"));
  EXPECT_FALSE(panel_->isHidden());
  EXPECT_TRUE(panel_->pairBox()->isChecked());
  EXPECT_EQ(panel_->longitudeBox()->currentText(), QStringLiteral("long"));
  EXPECT_TRUE(panel_->note()->text().contains(QStringLiteral("Proposed by Deniable")));
  page_->selectColumn(Index("long"));
  EXPECT_FALSE(panel_->isHidden());
  EXPECT_TRUE(panel_->pairBox()->isChecked());
  EXPECT_TRUE(panel_->note()->text().contains(QStringLiteral("settings (bins, bounds) are on ‘lat’")));
  page_->selectColumn(Index("kind"));
  EXPECT_TRUE(panel_->isHidden());  // a String column has no pair to offer

  // Undo the pair from the longitude column: one step, and the lat column's JSON says null.
  page_->selectColumn(Index("long"));
  const int steps = session_.undoStack()->count();
  panel_->pairBox()->setChecked(false);
  EXPECT_EQ(session_.undoStack()->count(), steps + 1);
  EXPECT_EQ(session_.undoStack()->undoText(), QStringLiteral("Model ‘lat’ and ‘long’ as two columns"));
  EXPECT_EQ(session_.schema().columns[static_cast<std::size_t>(Index("lat"))].geo_longitude, "");
  EXPECT_TRUE(session_.corrections()["columns"][0]["geo"].is_null());
  EXPECT_FALSE(panel_->pairBox()->isChecked());
  session_.undoStack()->undo();
  EXPECT_EQ(session_.schema().columns[static_cast<std::size_t>(Index("lat"))].geo_longitude, "long");
  EXPECT_TRUE(panel_->pairBox()->isChecked());
}

// The note says how the chosen mode models the pair: two columns and their joint in the
// correlated and marginals modes (ModelsGeoPairsJointly), one attribute in the others; it
// follows a change of mode.
TEST_F(GeoPairColumnsTest, TheNoteSaysHowTheChosenModeModelsThePair) {
  page_->selectColumn(Index("lat"));
  ASSERT_EQ(session_.settings().model.mode, SynthesisMode::kMarginals);  // the default
  EXPECT_TRUE(panel_->note()->text().contains(
      QStringLiteral("The marginals mode learns them as two numeric columns and their joint")))
      << panel_->note()->text().toStdString();
  PrivacySettings independent = session_.settings();
  independent.model.mode = SynthesisMode::kIndependent;
  session_.editSettings(independent, QStringLiteral("independent mode"));
  EXPECT_TRUE(panel_->note()->text().contains(QStringLiteral("are one attribute of the model")))
      << panel_->note()->text().toStdString();
  if (const char* dir = std::getenv("DENIABLE_GRAB_DIR")) {  // for looking at it by hand
    page_->resize(1100, 700);
    page_->grab().save(QString::fromUtf8(dir) + QStringLiteral("/geo_note_independent.png"));
    session_.undoStack()->undo();
    page_->grab().save(QString::fromUtf8(dir) + QStringLiteral("/geo_note_marginals.png"));
  }
}

TEST_F(GeoPairColumnsTest, AColumnInNoPairOffersItsLongitudeAndDeclaresThePair) {
  ASSERT_TRUE(session_.editColumns({{"columns", {{{"name", "lat"}, {"geo", nullptr}}}}}, "undo pair"));
  page_->selectColumn(Index("lat"));
  EXPECT_FALSE(panel_->isHidden());
  EXPECT_FALSE(panel_->pairBox()->isChecked());
  EXPECT_TRUE(panel_->longitudeBox()->isEnabled());
  EXPECT_EQ(panel_->longitudeBox()->currentText(), QStringLiteral("long"));  // by name
  panel_->pairBox()->setChecked(true);
  EXPECT_EQ(session_.undoStack()->undoText(), QStringLiteral("Model ‘lat’ and ‘long’ as a geo pair"));
  EXPECT_EQ(session_.schema().columns[static_cast<std::size_t>(Index("lat"))].geo_longitude, "long");
  EXPECT_TRUE(panel_->pairBox()->isChecked());
  EXPECT_FALSE(panel_->longitudeBox()->isEnabled());
}

TEST(GeoPairReviewTest, TheNetworkNamesThePairsAttributeLatPlusLong) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  NullProgress progress;
  InputSettings input_settings;
  input_settings.path = WriteStops(dir).toStdString();
  auto input = LoadInput(input_settings, progress);
  ASSERT_TRUE(input.has_value()) << input.error().message;
  ModelSettings settings;
  // A mode that models the pair as one attribute (the correlated and marginals modes model
  // its two columns: ModelsGeoPairsJointly).
  settings.mode = SynthesisMode::kIndependent;
  settings.epsilon = 1.0;
  settings.threads = 1;
  SeededRng rng(5);
  auto release = RunRelease(input.value(), settings, /*rows=*/500, rng, progress);
  ASSERT_TRUE(release.has_value()) << release.error().message;
  const std::shared_ptr<const ReviewData> data =
      deniable::test_support::ReviewDataOf(input.value(), settings, release.value());
  ASSERT_EQ(data->description.domains.size(), 2u);  // kind, and the pair
  const int geo = 1;
  ASSERT_TRUE(data->description.domains[geo].is_geo());

  NetworkScene scene;
  ASSERT_TRUE(scene.setData(*data));
  EXPECT_EQ(scene.nodeCount(), 2);
  const QRectF rect = scene.nodeRect(geo);
  QString tooltip;
  for (QGraphicsItem* item : scene.items(rect.center())) {
    if (!item->toolTip().isEmpty()) tooltip = item->toolTip();
  }
  EXPECT_TRUE(tooltip.startsWith(QStringLiteral("lat + long (geo pair · "))) << tooltip.toStdString();

  NetworkView view;
  view.resize(1200, 800);
  view.setData(data);
  view.showAttribute(geo);
  EXPECT_TRUE(view.costText().contains(QStringLiteral("ledger entries about lat + long")));
  EXPECT_TRUE(view.costText().contains(QStringLiteral("cells of lat + long")));
}

}  // namespace
}  // namespace deniable::ui
