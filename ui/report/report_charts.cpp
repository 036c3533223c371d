// SPDX-License-Identifier: Apache-2.0
#include "ui/report/report_charts.h"

#include <algorithm>
#include <numeric>

#include <QObject>

#include "ui/review/attack_chart.h"
#include "ui/review/attack_facts.h"
#include "ui/review/review_format.h"
#include "ui/review/review_render.h"
#include "ui/review/risk_chart.h"
#include "ui/review/risk_facts.h"

namespace deniable::ui {
namespace {

// Logical pixels; every picture is rendered at 2x.
const QSize kNetworkMaxSize(960, 760);
const QSize kHistogramSize(470, 360);  // two per row
const QSize kPairOfHeatmapsSize(920, 520);
const QSize kDifferenceSize(560, 520);
const QSize kRiskPlotSize(760, 500);  // its legend needs the width
constexpr int kAttackChartWidth = 760;
constexpr qreal kPixelRatio = 2.0;

}  // namespace

std::vector<std::size_t> WorstColumns(const MetricReport& report, int count) {
  std::vector<std::size_t> order(report.columns.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&report](std::size_t a, std::size_t b) {
    return report.columns[a].tvd > report.columns[b].tvd;
  });
  if (count >= 0 && order.size() > static_cast<std::size_t>(count)) {
    order.resize(static_cast<std::size_t>(count));
  }
  return order;
}

std::vector<ReportChart> ReportCharts(std::shared_ptr<const ReviewData> data,
                                      const ReportOptions& options) {
  std::vector<ReportChart> charts;
  charts.push_back({QObject::tr("the model's picture"), [data](ReportImages& images) {
                      images.network = renderNetworkImage(*data, kNetworkMaxSize, kPixelRatio);
                    }});
  if (options.audience != ReportAudience::kOwner) return charts;
  const MetricReport& report = data->metrics;
  if (!report.columns.empty() && options.histograms > 0) {
    for (std::size_t column : WorstColumns(report, options.histograms)) {
      charts.push_back(
          {QObject::tr("the histogram of %1").arg(toQString(report.columns[column].name)),
           [data, column](ReportImages& images) {
             images.histograms.push_back(
                 renderHistogramImage(data->metrics.columns[column], kHistogramSize, kPixelRatio));
           }});
    }
  }
  if (report.columns.size() >= 2) {
    charts.push_back({QObject::tr("the mutual information heatmaps"), [data](ReportImages& images) {
                        images.heatmaps =
                            renderCorrelationImage(data->metrics, kPairOfHeatmapsSize, kPixelRatio,
                                                   CorrelationParts::kRealAndSynthetic);
                      }});
    charts.push_back({QObject::tr("the heatmaps' difference"), [data](ReportImages& images) {
                        images.heatmap_difference =
                            renderCorrelationImage(data->metrics, kDifferenceSize, kPixelRatio,
                                                   CorrelationParts::kDifference);
                      }});
  }
  if (options.risk && !options.risk->report.per_epsilon.empty()) {
    charts.push_back(
        {QObject::tr("the disclosure risk plot"), [risk = options.risk](ReportImages& images) {
           RiskChartView chart;
           chart.setAnalysis(*risk);
           images.risk_plot = renderWidget(chart, kRiskPlotSize, kPixelRatio);
         }});
  }
  if (options.attacks) {
    charts.push_back(
        {QObject::tr("the attacks' chart"),
         [attacks = options.attacks, threshold = options.attack_threshold](ReportImages& images) {
           AttackChart chart;
           chart.setRows(attackRows(attacks->report), threshold);
           images.attack_chart = renderWidget(
               chart, QSize(kAttackChartWidth, chart.sizeHint().height()), kPixelRatio);
         }});
  }
  return charts;
}

ReportImages DrawReportImages(const ReviewData& data, const ReportOptions& options) {
  // Not owned: `data` outlives the charts, which end with this call (the aliasing constructor
  // shares no ownership).
  const std::shared_ptr<const ReviewData> borrowed(std::shared_ptr<const ReviewData>(), &data);
  ReportImages images;
  for (const ReportChart& chart : ReportCharts(borrowed, options)) chart.draw(images);
  return images;
}

}  // namespace deniable::ui
