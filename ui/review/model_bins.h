// SPDX-License-Identifier: Apache-2.0
// The Histograms tab's "Model bins" view: a numeric column's real and synthetic distributions
// over the MODEL's bins (the release description's ColumnDomain: non-uniform edges placed by
// the private adaptive histogram, a spike such as capital-gain = 0 a bin of its own) instead of
// the metrics' equal-width bins.
//
// The bins are part of the release (private); the real counts per bin are exact statistics of
// the real data, for the owner's review only (like everything else on the Review step).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <QList>
#include <QString>
#include <QStringList>

#include "engine/metrics/metric_report.h"
#include "engine/model/domain.h"
#include "ui/review/review_data.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace deniable::ui {

// The release's numeric, non-categorical domain of column `name` (one with bins), or null.
const ColumnDomain* modelBinsDomain(const ReviewData& data, const std::string& name);

struct ModelBinHistogram {
  std::string name;
  DataType type = DataType::kInteger;
  int bins = 0;             // the domain's bins: the first `bins` entries below
  // Per entry: the bin's label (ColumnDomain::CodeLabel), then "(missing)" when either table
  // has missing or unreadable cells.
  QStringList labels;
  std::vector<double> left, right;   // per bin: its interval [left, right) in column units
  std::vector<bool> single_value;    // per bin: holds one lattice point (a spike)
  std::vector<std::uint64_t> real_counts, synthetic_counts;  // per entry
  std::uint64_t real_rows = 0, synthetic_rows = 0;
  // Values outside the domain's range [lo, hi], counted in the edge bins (the encoder clamps
  // them there): a range that misses part of the data shows here.
  std::uint64_t real_outside = 0, synthetic_outside = 0;
  QString range;  // "0–99" (the first bin's first value to the last bin's last)
  double tvd = 0;  // half the L1 distance between the two tables' shares over these entries

  double realShare(std::size_t entry) const;       // fraction of the real rows
  double syntheticShare(std::size_t entry) const;
  bool hasMissingEntry() const { return labels.size() > bins; }
};

// Counts both tables' rows per model bin: values parsed with the run's schema (unreadable
// cells count as missing, as the encoder treats them), values outside the domain's range
// clamped into its edge bins (ColumnDomain::BinOf, as the encoder does). nullopt when the
// column has no model bins or is absent from either table.
std::optional<ModelBinHistogram> countModelBins(const ReviewData& data, const std::string& name);

enum class ModelBinsScale {
  kSharePerBin,  // one bar pair per bin, equal widths, labelled by the bin's range
  kDensity,      // bars as wide as the bins on a numeric axis, height = share per unit
};

// What the chart cannot show, as sentences for a caption: values outside the model's range
// (clamped into its edge bins), and in the density view the spikes drawn off the top of the
// scale and the missing cells.
QStringList modelBinsNotes(const ModelBinHistogram& histogram, ModelBinsScale scale);

// A new chart (caller owns it). kSharePerBin: a QBarSeries (Real, Synthetic) over a category
// axis of the entries' labels, like the equal-width view. kDensity: the real distribution as
// a filled step area and the synthetic one as a step line over a value (or date) axis, heights
// in percent of rows per `densityUnit`; bins holding a single value (spikes) whose density
// would flatten the rest are drawn off the top of the scale and named in the title.
QChart* createModelBinsChart(const ModelBinHistogram& histogram, ModelBinsScale scale);

// The unit the density view divides by (a power of ten near the typical bin width; a day or
// a year for DateTime columns), and its label ("1,000", "day").
double densityUnit(const ModelBinHistogram& histogram);
QString densityUnitLabel(const ModelBinHistogram& histogram);

}  // namespace deniable::ui
