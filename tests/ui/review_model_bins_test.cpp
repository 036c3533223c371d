// SPDX-License-Identifier: Apache-2.0
// Histograms tab, "Model bins": a numeric column drawn over exactly the release's bins (the
// description's ColumnDomain edges), with both tables counted per bin the way the engine's
// encoder assigns codes; as shares per bin and as a density with widths to scale.
#include <gtest/gtest.h>

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QLineSeries>
#include <QPointer>
#include <QValueAxis>

#include "engine/core/progress.h"
#include "engine/model/domains.h"
#include "engine/model/encoding.h"
#include "engine/schema/typed_values.h"
#include "tests/ui/review_test_fixture.h"
#include "ui/review/attribute_tvd_model.h"
#include "ui/review/histogram_view.h"
#include "ui/review/model_bins.h"

namespace deniable::ui {
namespace {

// Per code of attribute `name`: how many rows of `table` the engine's encoder gives it.
std::vector<std::uint64_t> EncodedCounts(const RawTable& table, const ReviewData& data,
                                         const std::string& name) {
  NullProgress progress;
  auto encoded = Encode(table, data.schema, data.description.domains, progress);
  EXPECT_TRUE(encoded.has_value()) << (encoded ? "" : encoded.error().message);
  if (!encoded) return {};
  const std::vector<int> modelled = ModelledColumns(data.schema);
  for (std::size_t k = 0; k < modelled.size(); ++k) {
    if (data.schema.columns[static_cast<std::size_t>(modelled[k])].name != name) continue;
    std::vector<std::uint64_t> counts(data.description.domains[k].cardinality(), 0);
    for (Code code : encoded->columns[k]) ++counts[code];
    return counts;
  }
  ADD_FAILURE() << name << " is not modelled";
  return {};
}

int ReportIndex(const ReviewData& data, const std::string& name) {
  for (std::size_t i = 0; i < data.metrics.columns.size(); ++i) {
    if (data.metrics.columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

TEST(ModelBinsTest, CountsEachTableOverExactlyTheDomainsBinsAsTheEncoderDoes) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  for (const char* name : {"age", "hours-per-week", "fnlwgt", "capital-gain"}) {
    SCOPED_TRACE(name);
    const ColumnDomain* domain = modelBinsDomain(*data, name);
    ASSERT_NE(domain, nullptr);
    auto bins = countModelBins(*data, name);
    ASSERT_TRUE(bins.has_value());
    ASSERT_EQ(bins->bins, domain->bins);
    const int column = data->description.schema.ColumnIndex(name);
    const ColumnSchema* released = &data->description.schema.columns[static_cast<std::size_t>(column)];
    for (int b = 0; b < domain->bins; ++b) {
      EXPECT_EQ(bins->labels[b].toStdString(), domain->CodeLabel(static_cast<std::uint32_t>(b), released));
      EXPECT_EQ(bins->left[static_cast<std::size_t>(b)], domain->edges[static_cast<std::size_t>(b)]);
      EXPECT_EQ(bins->right[static_cast<std::size_t>(b)], domain->edges[static_cast<std::size_t>(b) + 1]);
    }
    // The encoder's codes, counted independently, over the real and the synthetic table.
    const std::vector<std::uint64_t> real = EncodedCounts(*data->real, *data, name);
    const std::vector<std::uint64_t> synthetic = EncodedCounts(*data->synthetic, *data, name);
    ASSERT_EQ(real.size(), domain->cardinality());
    for (std::uint32_t b = 0; b < static_cast<std::uint32_t>(domain->bins); ++b) {
      EXPECT_EQ(bins->real_counts[b], real[b]) << "bin " << b;
      EXPECT_EQ(bins->synthetic_counts[b], synthetic[b]) << "bin " << b;
    }
    EXPECT_EQ(bins->real_rows, data->real->num_rows());
    EXPECT_EQ(bins->synthetic_rows, data->synthetic->num_rows());
  }
  // Not for categorical or String columns: they are compared value by value already.
  EXPECT_EQ(modelBinsDomain(*data, "sex"), nullptr);
  EXPECT_EQ(modelBinsDomain(*data, "education-num"), nullptr);
  EXPECT_FALSE(countModelBins(*data, "sex").has_value());
}

TEST(ModelBinsTest, ValuesOutsideTheModelsRangeAreCountedAndNamed) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  for (const ColumnDomain& domain : data->description.domains) {
    auto bins = countModelBins(*data, domain.name);
    if (!bins) continue;
    SCOPED_TRACE(domain.name);
    // Exactly the real rows whose value lies outside [lo, hi].
    const RawColumn& raw = data->real->columns[static_cast<std::size_t>(data->real->ColumnIndex(domain.name))];
    const ColumnSchema& column = data->schema.columns[static_cast<std::size_t>(data->schema.ColumnIndex(domain.name))];
    std::uint64_t outside = 0;
    for (std::size_t i = 0; i < raw.dictionary.size(); ++i) {
      const auto value = ParseNumericCell(raw.dictionary[i], column);
      if (value && (*value < domain.lo || *value > domain.hi)) outside += raw.counts[i];
    }
    EXPECT_EQ(bins->real_outside, outside);
    // Synthetic values are drawn inside the bins: never outside.
    EXPECT_EQ(bins->synthetic_outside, 0u);
    const QStringList notes = modelBinsNotes(*bins, ModelBinsScale::kSharePerBin);
    EXPECT_EQ(notes.join(QString()).contains(QStringLiteral("Outside the model's range")), outside > 0);
  }
}

TEST(HistogramViewModelBinsTest, TheToggleRedrawsOverTheModelsBins) {
  auto data = test_support::DemoReviewData();
  ASSERT_NE(data, nullptr);
  HistogramView view;
  view.setData(data);
  QCheckBox* toggle = view.modelBinsButton();
  EXPECT_FALSE(toggle->isChecked());  // the default view is the metrics' equal-width bins
  EXPECT_FALSE(toggle->toolTip().isEmpty());

  view.showAttribute(ReportIndex(*data, "age"));
  ASSERT_TRUE(toggle->isEnabled());
  EXPECT_FALSE(view.showingModelBins());
  toggle->setChecked(true);
  ASSERT_TRUE(view.showingModelBins());
  const ColumnDomain* domain = modelBinsDomain(*data, "age");
  ASSERT_NE(domain, nullptr);
  const auto bins = countModelBins(*data, "age");
  ASSERT_TRUE(bins.has_value());
  // Share per bin: one category per model bin, labelled by the engine, in percent of rows.
  QChart* chart = view.chart();
  ASSERT_EQ(chart->series().size(), 1);
  auto* bars = qobject_cast<QBarSeries*>(chart->series().front());
  ASSERT_NE(bars, nullptr);
  auto* axis = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Horizontal).front());
  ASSERT_NE(axis, nullptr);
  ASSERT_EQ(axis->count(), bins->labels.size());
  ASSERT_EQ(axis->count(), domain->bins + (bins->hasMissingEntry() ? 1 : 0));
  const int column = data->description.schema.ColumnIndex("age");
  for (int b = 0; b < domain->bins; ++b) {
    EXPECT_EQ(axis->categories()[b].toStdString(),
              domain->CodeLabel(static_cast<std::uint32_t>(b),
                                &data->description.schema.columns[static_cast<std::size_t>(column)]));
    EXPECT_NEAR(bars->barSets()[0]->at(b), 100.0 * bins->realShare(static_cast<std::size_t>(b)), 1e-9);
    EXPECT_NEAR(bars->barSets()[1]->at(b), 100.0 * bins->syntheticShare(static_cast<std::size_t>(b)), 1e-9);
  }
  EXPECT_TRUE(chart->title().contains(QStringLiteral("%1 model bins").arg(domain->bins)));

  // Density: a step outline over the value axis whose corners are exactly the bin edges, at
  // the height share / (width / unit).
  view.modelBinsScaleBox()->setCurrentIndex(1);
  chart = view.chart();
  ASSERT_EQ(chart->series().size(), 2);
  auto* area = qobject_cast<QAreaSeries*>(chart->series()[0]);
  ASSERT_NE(area, nullptr);
  // The area does not own its outline: the chart does, and it goes with the chart.
  QLineSeries* upper = area->upperSeries();
  ASSERT_NE(upper, nullptr);
  EXPECT_EQ(upper->parent(), chart);
  const QPointer<QLineSeries> outline = upper;
  const QList<QPointF> points = area->upperSeries()->points();
  ASSERT_EQ(points.size(), 2 * domain->bins + 2);
  const double unit = densityUnit(*bins);
  for (int b = 0; b < domain->bins; ++b) {
    const auto i = static_cast<std::size_t>(b);
    const QPointF left = points[1 + 2 * b];
    const QPointF right = points[2 + 2 * b];
    EXPECT_EQ(left.x(), domain->edges[i]);
    EXPECT_EQ(right.x(), domain->edges[i + 1]);
    const double density = 100.0 * bins->realShare(i) / ((domain->edges[i + 1] - domain->edges[i]) / unit);
    auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).front());
    ASSERT_NE(y, nullptr);
    // Bars above the scale are drawn just above its top (and named in the caption).
    EXPECT_NEAR(left.y(), std::min(density, y->max() * 1.02), 1e-9);
    EXPECT_EQ(left.y(), right.y());
  }

  // A categorical column: the toggle is disabled and the equal-width view shown.
  view.showAttribute(ReportIndex(*data, "sex"));
  EXPECT_TRUE(outline.isNull());  // deleted with the density chart the view replaced
  EXPECT_FALSE(toggle->isEnabled());
  EXPECT_FALSE(view.showingModelBins());
  EXPECT_EQ(qobject_cast<QBarSeries*>(view.chart()->series().front())->barSets()[0]->count(),
            static_cast<int>(data->metrics.columns[static_cast<std::size_t>(ReportIndex(*data, "sex"))]
                                 .histogram.labels.size()));
  // Back to a numeric column: the toggle's choice is kept.
  view.showAttribute(ReportIndex(*data, "hours-per-week"));
  EXPECT_TRUE(view.showingModelBins());
  toggle->setChecked(false);
  EXPECT_FALSE(view.showingModelBins());
}

}  // namespace
}  // namespace deniable::ui
