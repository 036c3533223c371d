// SPDX-License-Identifier: Apache-2.0
// Internal to ui/report: the sections of the release report. The shareable sections draw only
// on what the release reveals (release_report.h explains the rule); the owner section is the
// only one that reads the real data's statistics (MetricReport, input path and hash).
#pragma once

#include <QString>

#include "ui/report/release_report.h"
#include "ui/report/report_charts.h"
#include "ui/review/network_facts.h"
#include "ui/review/privacy_facts.h"

namespace deniable::ui::report_sections {

QString guaranteeSection(const PrivacyFacts& privacy);
QString releaseSection(const ReviewData& data, const PrivacyFacts& privacy);
QString parameterSection(const ReviewData& data);
QString ledgerSection(const ReviewData& data, const PrivacyFacts& privacy);
QString domainSection(const ReviewData& data);
// `picture`: ReportImages::network.
QString modelSection(const ReviewData& data, const NetworkFacts& network, const QImage& picture);
QString outputSection(const ReportContext& context);
QString warningSection(const PrivacyFacts& privacy, bool includeOwnerOnly);
QString scopeSection();
// The verdict (engine/evaluate/verdict.h). Shareable (`owner` false): the guarantee findings
// only, and δ is not judged against 1/n (n, the real row count, is a statistic of the real
// data). Owner: every finding, with the utility baselines computed here on the real table.
// `risk` (owner only, may be null): the Disclosure risk analysis's finding joins the verdict.
// `attacks` (owner only, may be null): the Attacks tab's finding at `attackThreshold` joins it.
QString verdictSection(const ReviewData& data, bool owner, const RiskAnalysis* risk = nullptr,
                       const AttackAnalysis* attacks = nullptr, double attackThreshold = 0.1);

// The owner-only part (input path and SHA-256, CLI command, utility metrics, histograms,
// heatmaps, owner-only warnings, the Disclosure risk analysis when options.risk is set, the
// attacks on the release when options.attacks is); its pictures from `images`.
QString ownerSection(const ReviewData& data, const ReportContext& context,
                     const ReportOptions& options, const PrivacyFacts& privacy,
                     const ReportImages& images);

}  // namespace deniable::ui::report_sections
