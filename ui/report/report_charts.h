// SPDX-License-Identifier: Apache-2.0
// The release report's pictures, apart from its text (issue 11). Drawing a chart needs Qt
// Widgets and Qt Charts, so the UI thread; the rest of the report is text. ReportCharts lists
// the pictures a report holds, each drawn by one call (one per event-loop turn in the GUI's
// export, so the window stays live); ReportImages holds what they drew; and
// BuildReleaseReportHtml(data, context, options, images) (release_report.h) assembles the HTML
// from those images on any thread. The three-argument BuildReleaseReportHtml does both in one
// call, through the same functions: the HTML is the same byte for byte.
//
// Not for: anything but the release report (the Review's views draw their own charts).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include <QImage>
#include <QString>

#include "engine/metrics/metric_report.h"
#include "ui/report/release_report.h"

namespace deniable::ui {

// What a report's charts drew. Which pictures are set depends on the data and options the
// charts were listed for; BuildReleaseReportHtml must get the images of the same data and
// options.
struct ReportImages {
  QImage network;                  // the model's picture (every report)
  std::vector<QImage> histograms;  // owner part: WorstColumns(...)'s charts, in that order
  QImage heatmaps;                 // owner part: real and synthetic mutual information
  QImage heatmap_difference;       // owner part: synthetic minus real
  QImage risk_plot;                // owner part, with ReportOptions::risk
  QImage attack_chart;             // owner part, with ReportOptions::attacks
};

// One picture of the report.
struct ReportChart {
  QString title;  // for people: "the histogram of age"
  // Draws the picture into `images` (UI thread: Qt Widgets). The charts of one report are
  // drawn in the order ReportCharts lists them, each once.
  std::function<void(ReportImages& images)> draw;
};

// The pictures of the report of `data` with `options`, in the order the report shows them.
// The charts share `data` and the options' analyses: they may outlive the caller's copies.
std::vector<ReportChart> ReportCharts(std::shared_ptr<const ReviewData> data,
                                      const ReportOptions& options);

// Every chart of ReportCharts(data, options), drawn in one call (UI thread); `data` need
// only outlive the call.
ReportImages DrawReportImages(const ReviewData& data, const ReportOptions& options);

// The indices of `report`'s columns by decreasing TVD (ties in column order), at most `count`
// of them (all when count < 0): the owner part's utility table and its histograms.
std::vector<std::size_t> WorstColumns(const MetricReport& report, int count = -1);

}  // namespace deniable::ui
