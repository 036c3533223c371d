// SPDX-License-Identifier: Apache-2.0
#include "ui/review/model_bins.h"

#include <algorithm>
#include <cmath>

#include <QAreaSeries>
#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>

#include "engine/schema/typed_values.h"
#include "ui/review/histogram_chart.h"
#include "ui/review/review_format.h"

namespace deniable::ui {
namespace {

constexpr double kDay = 86400.0;
constexpr double kYear = 365.25 * kDay;
// A spike is drawn off the scale when its density exceeds the other bins' highest this many
// times (below that, the whole picture fits and nothing is hidden).
constexpr double kOffScaleFactor = 4.0;

// Per row of `raw`: the model bin (or `missing` for a missing or unreadable cell), counted.
// Returns how many rows hold a value outside [domain.lo, domain.hi].
std::uint64_t countColumn(const RawColumn& raw, const ColumnSchema& column,
                          const ColumnDomain& domain, std::uint32_t missing,
                          std::vector<std::uint64_t>& counts) {
  const std::vector<double> values = NumericDictionaryValues(raw, column);
  std::vector<std::uint32_t> bin_of(values.size());
  std::vector<bool> outside(values.size(), false);
  for (std::size_t i = 0; i < values.size(); ++i) {
    bin_of[i] = std::isnan(values[i]) ? missing : domain.BinOf(values[i]);
    outside[i] = !std::isnan(values[i]) && (values[i] < domain.lo || values[i] > domain.hi);
  }
  std::uint64_t out = 0;
  for (const std::uint32_t code : raw.codes) {
    if (code == kMissingCode) {
      ++counts[missing];
    } else {
      ++counts[bin_of[code]];
      if (outside[code]) ++out;
    }
  }
  return out;
}

}  // namespace

double ModelBinHistogram::realShare(std::size_t entry) const {
  return real_rows == 0 ? 0.0
                        : static_cast<double>(real_counts[entry]) / static_cast<double>(real_rows);
}

double ModelBinHistogram::syntheticShare(std::size_t entry) const {
  return synthetic_rows == 0 ? 0.0
                             : static_cast<double>(synthetic_counts[entry]) /
                                   static_cast<double>(synthetic_rows);
}

const ColumnDomain* modelBinsDomain(const ReviewData& data, const std::string& name) {
  for (const ColumnDomain& domain : data.description.domains) {
    if (domain.name != name) continue;
    const bool numeric = domain.type != DataType::kString && !domain.random_strings;
    return numeric && !domain.categorical && domain.bins > 0 &&
                   domain.edges.size() == static_cast<std::size_t>(domain.bins) + 1
               ? &domain
               : nullptr;
  }
  return nullptr;
}

std::optional<ModelBinHistogram> countModelBins(const ReviewData& data, const std::string& name) {
  const ColumnDomain* domain = modelBinsDomain(data, name);
  if (domain == nullptr || !data.real || !data.synthetic) return std::nullopt;
  const int schema_index = data.schema.ColumnIndex(name);
  const int real_index = data.real->ColumnIndex(name);
  const int synthetic_index = data.synthetic->ColumnIndex(name);
  if (schema_index < 0 || real_index < 0 || synthetic_index < 0) return std::nullopt;
  const ColumnSchema& column = data.schema.columns[static_cast<std::size_t>(schema_index)];
  const int released_index = data.description.schema.ColumnIndex(name);
  const ColumnSchema* released =
      released_index < 0 ? &column
                         : &data.description.schema.columns[static_cast<std::size_t>(released_index)];

  ModelBinHistogram h;
  h.name = name;
  h.type = domain->type;
  h.bins = domain->bins;
  const auto bins = static_cast<std::uint32_t>(domain->bins);
  const std::uint32_t missing = bins;  // one entry after the bins
  h.real_counts.assign(bins + 1, 0);
  h.synthetic_counts.assign(bins + 1, 0);
  const RawColumn& real = data.real->columns[static_cast<std::size_t>(real_index)];
  const RawColumn& synthetic = data.synthetic->columns[static_cast<std::size_t>(synthetic_index)];
  h.real_outside = countColumn(real, column, *domain, missing, h.real_counts);
  h.synthetic_outside = countColumn(synthetic, column, *domain, missing, h.synthetic_counts);
  {
    // The whole range as one bin's label, formatted by the engine ("0–99", "[0.5, 7.25]").
    ColumnDomain whole;
    whole.type = domain->type;
    whole.categorical = false;
    if (whole.SetBins({domain->edges.front(), domain->edges.back()}, domain->step)) {
      h.range = toQString(whole.CodeLabel(0, released));
    }
  }
  h.real_rows = real.num_rows();
  h.synthetic_rows = synthetic.num_rows();
  if (h.real_counts[missing] == 0 && h.synthetic_counts[missing] == 0) {
    h.real_counts.pop_back();
    h.synthetic_counts.pop_back();
  }
  for (std::uint32_t bin = 0; bin < bins; ++bin) {
    h.labels << toQString(domain->CodeLabel(bin, released));
    h.left.push_back(domain->BinLeft(bin));
    h.right.push_back(domain->BinRight(bin));
    h.single_value.push_back(domain->on_lattice() && domain->PointsIn(domain->BinLeft(bin),
                                                                      domain->BinRight(bin)) <= 1);
  }
  if (h.real_counts.size() > bins) h.labels << QStringLiteral("(missing)");
  double l1 = 0;
  for (std::size_t i = 0; i < h.real_counts.size(); ++i) {
    l1 += std::abs(h.realShare(i) - h.syntheticShare(i));
  }
  h.tvd = l1 / 2;
  return h;
}

double densityUnit(const ModelBinHistogram& h) {
  std::vector<double> widths;
  for (int i = 0; i < h.bins; ++i) {
    if (!h.single_value[static_cast<std::size_t>(i)]) {
      widths.push_back(h.right[static_cast<std::size_t>(i)] - h.left[static_cast<std::size_t>(i)]);
    }
  }
  if (widths.empty()) {
    for (int i = 0; i < h.bins; ++i) {
      widths.push_back(h.right[static_cast<std::size_t>(i)] - h.left[static_cast<std::size_t>(i)]);
    }
  }
  std::nth_element(widths.begin(), widths.begin() + static_cast<long>(widths.size() / 2), widths.end());
  const double typical = std::max(widths[widths.size() / 2], 1e-300);
  if (h.type == DataType::kDateTime) return typical < 0.5 * kYear ? kDay : kYear;
  return std::pow(10.0, std::round(std::log10(typical)));
}

QString densityUnitLabel(const ModelBinHistogram& h) {
  const double unit = densityUnit(h);
  if (h.type == DataType::kDateTime) return unit == kDay ? QObject::tr("day") : QObject::tr("year");
  if (unit >= 1 && unit < 1e15) return formatCount(static_cast<std::uint64_t>(unit));
  return QString::number(unit, 'g', 3);
}

namespace {

// The density view's numbers: per bin, percent of rows per densityUnit; the y axis's top and
// tick step; the bins drawn off the top.
struct DensityLayout {
  std::vector<double> real, synthetic;
  double axis_top = 0;
  int intervals = 1;
  std::vector<std::size_t> off_scale;
};

DensityLayout layOutDensity(const ModelBinHistogram& h) {
  DensityLayout out;
  const double unit = densityUnit(h);
  const auto n = static_cast<std::size_t>(h.bins);
  out.real.resize(n);
  out.synthetic.resize(n);
  double typical_top = 0, top = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double width = std::max(h.right[i] - h.left[i], 1e-300) / unit;
    out.real[i] = 100.0 * h.realShare(i) / width;
    out.synthetic[i] = 100.0 * h.syntheticShare(i) / width;
    const double bar = std::max(out.real[i], out.synthetic[i]);
    top = std::max(top, bar);
    if (!h.single_value[i]) typical_top = std::max(typical_top, bar);
  }
  // Spikes far above the other bins go off the scale, so that the shape of the rest stays
  // visible.
  const double y_top = typical_top > 0 && top > kOffScaleFactor * typical_top ? typical_top : top;
  const double y_step = niceTickStep(y_top);
  out.intervals = std::max(1, static_cast<int>(std::ceil(y_top * 1.02 / y_step - 1e-9)));
  out.axis_top = y_step * out.intervals;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::max(out.real[i], out.synthetic[i]) > out.axis_top) out.off_scale.push_back(i);
  }
  return out;
}

QString shareOf(std::uint64_t count, std::uint64_t rows) {
  return formatPercent(static_cast<double>(count) / static_cast<double>(std::max<std::uint64_t>(rows, 1)));
}

}  // namespace

QStringList modelBinsNotes(const ModelBinHistogram& h, ModelBinsScale scale) {
  QStringList notes;
  if (h.real_outside > 0 || h.synthetic_outside > 0) {
    notes << QObject::tr("⚠ Outside the model's range %1 (counted in its edge bins, as the model "
                         "encodes them): real %2, synthetic %3 of rows.")
                 .arg(h.range, shareOf(h.real_outside, h.real_rows),
                      shareOf(h.synthetic_outside, h.synthetic_rows));
  }
  if (scale == ModelBinsScale::kDensity) {
    const DensityLayout layout = layOutDensity(h);
    QStringList spikes;
    for (const std::size_t i : layout.off_scale) {
      spikes << QObject::tr("%1 (real %2, synthetic %3)")
                    .arg(h.labels[static_cast<qsizetype>(i)], formatPercent(h.realShare(i)),
                         formatPercent(h.syntheticShare(i)));
    }
    if (!spikes.isEmpty()) {
      notes << QObject::tr("Off the top of the scale (share of rows): %1.")
                   .arg(spikes.join(QStringLiteral(", ")));
    }
    if (h.hasMissingEntry()) {
      const auto n = static_cast<std::size_t>(h.bins);
      notes << QObject::tr("Missing (not drawn): real %1, synthetic %2 of rows.")
                   .arg(formatPercent(h.realShare(n)), formatPercent(h.syntheticShare(n)));
    }
  }
  return notes;
}

QChart* createModelBinsChart(const ModelBinHistogram& h, ModelBinsScale scale) {
  const QString entries =
      h.bins == 1 ? QObject::tr("· 1 model bin") : QObject::tr("· %1 model bins").arg(h.bins);
  if (scale == ModelBinsScale::kSharePerBin) {
    // The equal-width view's chart, fed with the model's bins.
    ColumnComparison comparison;
    comparison.name = h.name;
    comparison.kind = ComparisonKind::kBinned;
    comparison.categories = static_cast<std::uint64_t>(h.labels.size());
    comparison.tvd = h.tvd;
    for (qsizetype i = 0; i < h.labels.size(); ++i) {
      comparison.histogram.labels.push_back(h.labels[i].toStdString());
      comparison.histogram.real.push_back(h.realShare(static_cast<std::size_t>(i)));
      comparison.histogram.synthetic.push_back(h.syntheticShare(static_cast<std::size_t>(i)));
    }
    QChart* chart = createHistogramChart(comparison);
    chart->setTitle(chart->title() + QStringLiteral(" <span style='color:#666'>%1</span>").arg(entries));
    return chart;
  }

  // Density: share per unit over the bins' real widths.
  const DensityLayout layout = layOutDensity(h);
  const auto n = static_cast<std::size_t>(h.bins);
  auto* chart = new QChart;
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->setTitle(QStringLiteral("<b>%1</b> — TVD %2 <span style='color:#666'>%3</span>")
                      .arg(toQString(h.name).toHtmlEscaped(), formatFraction(h.tvd), entries));
  QFont titleFont = chart->titleFont();
  titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
  chart->setTitleFont(titleFont);

  const bool dates = h.type == DataType::kDateTime;
  auto x_of = [dates](double value) { return dates ? value * 1000.0 : value; };  // ms for dates
  // Bars off the scale end just above the plot area (Qt Charts fills an area badly when a
  // point lies far outside it).
  const double ceiling = layout.axis_top * 1.02;
  auto steps = [&](const std::vector<double>& density, QLineSeries* line) {
    line->append(x_of(h.left.front()), 0);
    for (std::size_t i = 0; i < n; ++i) {
      const double height = std::min(density[i], ceiling);
      line->append(x_of(h.left[i]), height);
      line->append(x_of(h.right[i]), height);
    }
    line->append(x_of(h.right.back()), 0);
  };
  auto* real_upper = new QLineSeries(chart);  // the area does not own it (see risk_chart.cpp)
  steps(layout.real, real_upper);
  auto* real = new QAreaSeries(real_upper);
  real->setName(QObject::tr("Real"));
  QColor fill = realColor();
  fill.setAlpha(150);
  real->setBrush(fill);
  real->setPen(QPen(realColor().darker(115), 1));
  auto* synthetic = new QLineSeries;
  synthetic->setName(QObject::tr("Synthetic"));
  steps(layout.synthetic, synthetic);
  synthetic->setPen(QPen(syntheticColor().darker(110), 2));
  chart->addSeries(real);
  chart->addSeries(synthetic);

  QAbstractAxis* x = nullptr;
  if (dates) {
    auto* axis = new QDateTimeAxis;
    axis->setFormat(QStringLiteral("yyyy-MM-dd"));
    axis->setRange(QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(x_of(h.left.front())), Qt::UTC),
                   QDateTime::fromMSecsSinceEpoch(static_cast<qint64>(x_of(h.right.back())), Qt::UTC));
    axis->setLabelsAngle(-45);
    x = axis;
  } else {
    auto* axis = new QValueAxis;
    axis->setRange(h.left.front(), h.right.back());
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->applyNiceNumbers();
    x = axis;
  }
  x->setTitleText(QObject::tr("%1 (bar widths = bin widths)").arg(toQString(h.name)));
  chart->addAxis(x, Qt::AlignBottom);
  real->attachAxis(x);
  synthetic->attachAxis(x);

  auto* y = new QValueAxis;
  y->setRange(0, layout.axis_top);
  y->setTickCount(layout.intervals + 1);
  y->setLabelFormat(QStringLiteral("%g %%"));
  y->setTitleText(QObject::tr("share of rows per %1").arg(densityUnitLabel(h)));
  chart->addAxis(y, Qt::AlignLeft);
  real->attachAxis(y);
  synthetic->attachAxis(y);

  chart->legend()->setAlignment(Qt::AlignTop);
  chart->legend()->setVisible(true);
  chart->setMargins(QMargins(4, 4, 4, 4));
  return chart;
}

}  // namespace deniable::ui
