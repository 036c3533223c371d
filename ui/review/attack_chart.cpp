// SPDX-License-Identifier: Apache-2.0
#include "ui/review/attack_chart.h"

#include <algorithm>

#include <QPainter>
#include <QPen>

#include "ui/review/review_format.h"
#include "ui/review/verdict_facts.h"

namespace deniable::ui {
namespace {

constexpr int kMargin = 8;
constexpr int kGap = 3;
constexpr int kBlockGap = 12;

struct Series {
  QString label;
  QColor color;
};

// The three bars of an attack, top to bottom.
std::vector<Series> series() {
  return {{AttackChart::tr("Rows it was made from"), QColor(0xc6, 0x3d, 0x2f)},
          {AttackChart::tr("Rows held out (baseline)"), QColor(0x4c, 0x72, 0xb0)},
          {AttackChart::tr("Random guess"), QColor(0x9e, 0x9e, 0x9e)}};
}

VerdictLevel levelOf(const AttackRisk& risk, double threshold) {
  if (!risk.attack_beats_naive) return VerdictLevel::kGood;
  if (risk.risk_interval.low > threshold) return VerdictLevel::kProblem;
  if (risk.risk > threshold) return VerdictLevel::kCaution;
  return VerdictLevel::kGood;
}

}  // namespace

AttackChart::AttackChart(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("attackChart"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  setToolTip(tr("Each attack's success rate with its 95% interval: on the rows the release was "
                "made from, on the rows held out (never seen by the model) and for a random "
                "guess. Bars of equal length: the release tells no more about its own rows than "
                "about anyone."));
}

void AttackChart::setRows(std::vector<AttackRow> rows, double threshold) {
  rows_ = std::move(rows);
  threshold_ = threshold;
  updateGeometry();
  update();
}

void AttackChart::clear() { setRows({}, threshold_); }

int AttackChart::contentHeight() const {
  const int line = fontMetrics().height();
  const int block = line + 4 + 3 * (line + kGap) + kBlockGap;
  return 2 * kMargin + static_cast<int>(rows_.size()) * block + line + 6;
}

QSize AttackChart::sizeHint() const { return QSize(640, contentHeight()); }

QSize AttackChart::minimumSizeHint() const { return QSize(420, contentHeight()); }

void AttackChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), palette().base());
  const QFontMetrics metrics = fontMetrics();
  const int line = metrics.height();
  const std::vector<Series> bars = series();
  int labelWidth = 0;
  for (const Series& s : bars) labelWidth = std::max(labelWidth, metrics.horizontalAdvance(s.label));
  labelWidth += 12;
  const int valueWidth = metrics.horizontalAdvance(QStringLiteral("100.0 %")) + 10;
  const int x0 = kMargin + labelWidth;
  const int x1 = std::max(x0 + 40, width() - kMargin - valueWidth);
  const auto xOf = [x0, x1](double rate) {
    return x0 + std::clamp(rate, 0.0, 1.0) * (x1 - x0);
  };
  const int top = kMargin;
  const int bottom = contentHeight() - kMargin - line - 6;

  // Grid: 0, 25, 50, 75, 100 %.
  painter.setPen(QPen(QColor(0xdd, 0xdd, 0xdd), 1));
  for (int tick = 0; tick <= 4; ++tick) {
    const double x = xOf(tick / 4.0);
    painter.drawLine(QPointF(x, top), QPointF(x, bottom));
  }
  painter.setPen(palette().color(QPalette::Text));
  for (int tick = 0; tick <= 4; ++tick) {
    const QString text = QStringLiteral("%1 %").arg(25 * tick);
    const double x = xOf(tick / 4.0) - metrics.horizontalAdvance(text) / 2.0;
    painter.drawText(QPointF(x, bottom + 4 + metrics.ascent()), text);
  }
  const QString axis = tr("success rate");
  painter.drawText(QPointF(kMargin, bottom + 4 + metrics.ascent()), axis);

  int y = top;
  QFont bold = font();
  bold.setBold(true);
  for (const AttackRow& row : rows_) {
    // Title: the attack's name, then its risk with the interval, coloured by level.
    painter.setFont(bold);
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QPointF(kMargin, y + metrics.ascent()), row.name);
    const int nameWidth = QFontMetrics(bold).horizontalAdvance(row.name);
    painter.setFont(font());
    const VerdictLevel level = levelOf(row.risk, threshold_);
    painter.setPen(verdictColor(level));
    QString risk = tr("risk %1").arg(riskWithInterval(row.risk));
    if (!row.risk.attack_beats_naive) risk += tr(" (no better than guessing)");
    painter.drawText(QPointF(kMargin + nameWidth + 10, y + metrics.ascent()), risk);
    y += line + 4;
    const RateEstimate* rates[] = {&row.risk.train, &row.risk.control, &row.risk.naive};
    for (std::size_t i = 0; i < bars.size(); ++i) {
      const RateEstimate& rate = *rates[i];
      painter.setPen(palette().color(QPalette::Text));
      painter.drawText(QPointF(kMargin + 4, y + metrics.ascent()), bars[i].label);
      const QRectF bar(x0, y + 2, xOf(rate.rate) - x0, line - 4);
      QColor fill = bars[i].color;
      fill.setAlpha(170);
      painter.fillRect(bar, fill);
      // The interval: a whisker with end ticks.
      const double mid = y + line / 2.0;
      painter.setPen(QPen(bars[i].color.darker(160), 1.5));
      const double lo = xOf(rate.interval.low), hi = xOf(rate.interval.high);
      painter.drawLine(QPointF(lo, mid), QPointF(hi, mid));
      painter.drawLine(QPointF(lo, mid - 4), QPointF(lo, mid + 4));
      painter.drawLine(QPointF(hi, mid - 4), QPointF(hi, mid + 4));
      painter.setPen(palette().color(QPalette::Text));
      painter.drawText(QPointF(x1 + 8, y + metrics.ascent()), formatPercent(rate.rate, 1));
      y += line + kGap;
    }
    y += kBlockGap;
  }
}

}  // namespace deniable::ui
