// SPDX-License-Identifier: Apache-2.0
#include "ui/pages/privacy_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include "engine/model/domains.h"
#include "ui/pages/deniable_settings.h"
#include "ui/session/guarantee_summary.h"
#include "ui/session/session.h"
#include "ui/tasks/domain_forecast.h"
#include "ui/tasks/job_controller.h"
#include "ui/text/format.h"
#include "ui/widgets/guarantee_panel.h"
#include "ui/widgets/mode_card.h"
#include "ui/widgets/page_header.h"
#include "ui/widgets/parameter_slider.h"
#include "ui/widgets/setting_control.h"

namespace deniable::ui {
namespace {

QString controlChoiceText(double fraction) {
  if (fraction == 0) return PrivacyPage::tr("Off (use every row)");
  return PrivacyPage::tr("%1 % of the rows").arg(formatDecimal(100 * fraction, 3));
}

// The domain share spin box's minimum: shown as "Automatic" (the engine's rule).
constexpr double kAutomaticShare = -0.05;

}  // namespace

PrivacyPage::PrivacyPage(Session* session, JobController* jobs, QWidget* parent)
    : QWidget(parent), session_(session), jobs_(jobs) {
  auto* content = new QWidget;
  auto* left = new QVBoxLayout(content);
  left->addWidget(buildModes());
  left->addWidget(buildParameters());
  deniable_ = new DeniableSettings(session_, jobs_, content);
  left->addWidget(deniable_);
  left->addWidget(buildRelease());
  left->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll_ = scroll;
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new PageHeader(Step::kPrivacy, this));
  layout->addWidget(scroll, 1);

  addSettingDetails(this);  // the settings table's bounds, flag and key in each tooltip
  connect(session_, &Session::settingsChanged, this, &PrivacyPage::refresh);
  connect(session_, &Session::dataChanged, this, &PrivacyPage::refresh);
  connect(session_, &Session::schemaChanged, this, &PrivacyPage::refresh);
  refresh();
}

QWidget* PrivacyPage::buildModes() {
  auto* box = new QGroupBox(tr("What to keep from your data"), this);
  auto* grid = new QGridLayout(box);
  const struct {
    SynthesisMode mode;
    QString protects, costs;
  } modes[] = {
      {SynthesisMode::kRandom,
       tr("everything: only each column's range and categories are learned, privately"),
       tr("keeps nothing else: values are drawn uniformly, no distributions or relationships")},
      {SynthesisMode::kIndependent,
       tr("individuals with ε-differential privacy over the whole release"),
       tr("keeps each column's distribution but loses the relationships between columns")},
      {SynthesisMode::kCorrelated,
       tr("individuals with ε-differential privacy over the whole release"),
       tr("keeps distributions and the strongest relationships (a Bayesian network); more "
          "noise per count as the degree grows")},
      {SynthesisMode::kDeniable,
       tr("each released row could have come from at least k people, plus differential privacy"),
       tr("slower: candidate rows that fail the privacy test are discarded")},
      {SynthesisMode::kMarginals,
       tr("individuals with ε-differential privacy over the whole release (zCDP accounting)"),
       tr("measures the 2- and 3-column tables that matter most (AIM) or a tree of pairs (MST) "
          "and fits a graphical model to them: the most faithful on most tables (the default), "
          "a few seconds")},
  };
  for (const auto& mode : modes) {
    auto* card = new ModeCard(modeTitle(static_cast<int>(mode.mode)), mode.protects, mode.costs, box);
    cards_[static_cast<std::size_t>(mode.mode)] = card;
    const int index = static_cast<int>(mode.mode);
    if (index < 4) {
      grid->addWidget(card, index / 2, index % 2);
    } else {
      grid->addWidget(card, index / 2, 0, 1, 2);  // the fifth card spans the row
    }
    connect(card, &ModeCard::chosen, this, [this, m = mode.mode] {
      PrivacySettings next = session_->settings();
      if (next.model.mode == m) return;
      next.model.mode = m;
      edit(next, tr("Choose %1 mode").arg(QString::fromUtf8(SynthesisModeName(m))));
    });
  }
  return box;
}

int PrivacyPage::automaticBins() const {
  const PrivacySettings& settings = session_->settings();
  const ModelSettings& model = settings.model;
  if (!session_->hasInput() || !model.Validate()) return 20;
  // As the run will choose (its DP row count stands in for this input's row count).
  const std::size_t rows = session_->data()->table->num_rows();
  const DomainBudget budget = plannedDomainBudget(session_->schema(), rows, settings);
  return AutomaticBins(model.mode, static_cast<double>(rows), model.epsilon - budget.total(),
                       ModelledColumns(modelledSchema(session_->schema(), settings)).size(),
                       model.structure_fraction);
}

void PrivacyPage::connectSlider(ParameterSlider* slider, const QString& what,
                                void (*apply)(PrivacySettings&, double)) {
  connect(slider, &ParameterSlider::dragStarted, this, [this] { gesture_ = session_->newGesture(); });
  connect(slider, &ParameterSlider::dragFinished, this, [this] { gesture_ = 0; });
  connect(slider, &ParameterSlider::valueEdited, this, [this, slider, what, apply](double value) {
    PrivacySettings next = session_->settings();
    apply(next, value);
    edit(next, tr("Set %1").arg(what), slider->dragging() ? gesture_ : 0);
  });
}

QWidget* PrivacyPage::buildParameters() {
  auto* box = new QGroupBox(tr("Privacy and model"), this);
  auto* form = new QFormLayout(box);
  // In a narrow window a label goes above its slider rather than pushing it out of view.
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  // The sliders' and spin boxes' ranges come from the settings table (setting_control.h).
  epsilon_ = settingSlider("epsilon",
                           {.minimum = 0, .maximum = 1, .decimals = 2, .step = 0.1,
                            .logarithmic = true, .integer = false,
                            .left_caption = tr("◀ more private"),
                            .right_caption = tr("more faithful ▶"), .suffix = {}},
                           box);
  epsilon_->setControlToolTip(tr("ε (epsilon), the privacy budget of the whole release. Smaller "
                                 "is more private and noisier. Common choices: 0.1 to 2."));
  connectSlider(epsilon_, QStringLiteral("ε"), [](PrivacySettings& s, double v) { s.model.epsilon = v; });
  form->addRow(tr("Privacy budget ε:"), epsilon_);
  guarantee_ = new QLabel(box);
  guarantee_->setWordWrap(true);
  guarantee_->setTextFormat(Qt::RichText);
  guarantee_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  guarantee_->setFrameShape(QFrame::StyledPanel);
  guarantee_->setMargin(6);
  guarantee_->setToolTip(tr("What these settings guarantee, computed by the engine and updated as "
                            "you change them. A smaller ε is more private: it bounds how much any "
                            "one person's record can change what is released."));
  form->addRow(tr("What you get:"), guarantee_);

  degree_ = settingSlider("degree",
                          {.minimum = 0, .maximum = 1, .decimals = 0, .step = 1,
                           .logarithmic = false, .integer = true,
                           .left_caption = tr("◀ fewer relationships, less noise"),
                           .right_caption = tr("more relationships ▶"), .suffix = {}},
                          box);
  degree_->setControlToolTip(tr("Correlated mode: how many other columns each column may depend "
                                "on. Higher keeps more relationships but splits ε over bigger "
                                "tables (more noise in each count)."));
  connectSlider(degree_, tr("degree"), [](PrivacySettings& s, double v) { s.model.degree = static_cast<int>(v); });
  form->addRow(tr("Degree (parents per column):"), degree_);

  mechanism_ = new QComboBox(box);
  mechanism_->addItem(tr("AIM — adaptive, the most faithful"),
                      static_cast<int>(MarginalsMechanism::kAim));
  mechanism_->addItem(tr("MST — a tree of pairs, faster"),
                      static_cast<int>(MarginalsMechanism::kMst));
  mechanism_->setToolTip(tr("Marginals mode: AIM chooses, round by round, the 2- and 3-column "
                            "tables whose noisy counts improve the model most; MST measures "
                            "every column and a spanning tree of column pairs."));
  connect(mechanism_, &QComboBox::activated, this, [this](int index) {
    PrivacySettings next = session_->settings();
    next.model.marginals.mechanism =
        static_cast<MarginalsMechanism>(mechanism_->itemData(index).toInt());
    edit(next, tr("Choose %1").arg(QString::fromUtf8(
                   MarginalsMechanismName(next.model.marginals.mechanism))));
  });
  form->addRow(tr("Marginals mechanism:"), mechanism_);

  // 2 to 1,000 bins: logarithmic, so that the common 5–50 keep most of the slider.
  bins_ = settingSlider("bins",
                        {.minimum = 0, .maximum = 1, .decimals = 0, .step = 1,
                         .logarithmic = true, .integer = true,
                         .left_caption = tr("◀ coarser, less noise"),
                         .right_caption = tr("finer detail ▶"), .suffix = {}},
                        box);
  bins_->setControlToolTip(tr("At most this many bins per number column. Deniable places them "
                              "privately where the data is (narrow where values crowd, a spike "
                              "such as 0 on its own); with public bounds and no share of ε for "
                              "domains they are equal-width. More bins show finer detail but "
                              "each gets fewer records (more relative noise)."));
  connectSlider(bins_, tr("bins"), [](PrivacySettings& s, double v) { s.model.bins = static_cast<int>(v); });
  // Automatic (bins = 0): the engine's rule (AutomaticBins) — fewer bins for small tables so
  // that the model's tables can keep a parent; the slider then shows what the rule picks.
  auto_bins_ = new QCheckBox(tr("Automatic"), box);
  auto_bins_->setToolTip(tr("Let Deniable choose from the table's size, ε and the number of "
                            "columns: 32 in the independent mode, 20 in the random and "
                            "marginals modes, fewer for small tables in the others so that "
                            "relationships keep enough records."));
  connect(auto_bins_, &QCheckBox::toggled, this, [this](bool automatic) {
    PrivacySettings next = session_->settings();
    next.model.bins = automatic ? 0 : static_cast<int>(bins_->value());
    edit(next, automatic ? tr("Choose the bins automatically") : tr("Set the bins"));
  });
  auto* bins_row = new QHBoxLayout;
  bins_row->addWidget(bins_, 1);
  bins_row->addWidget(auto_bins_, 0, Qt::AlignTop);
  form->addRow(tr("Bins for numbers:"), bins_row);

  auto* more = more_ = new QToolButton(box);
  more->setText(tr("More settings"));
  more->setCheckable(true);
  more->setArrowType(Qt::RightArrow);
  more->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  more->setAutoRaise(true);
  more->setToolTip(tr("δ and how ε is shared between the steps (the defaults suit most data)"));
  auto* advanced = new QWidget(box);
  auto* advanced_form = new QFormLayout(advanced);
  advanced_form->setContentsMargins(0, 0, 0, 0);
  advanced->setVisible(false);
  connect(more, &QToolButton::toggled, this, [more, advanced](bool on) {
    more->setArrowType(on ? Qt::DownArrow : Qt::RightArrow);
    advanced->setVisible(on);
  });
  form->addRow(more);
  form->addRow(advanced);
  delta_ = new QComboBox(box);
  for (double delta : Setting("delta").presets) delta_->addItem(formatDelta(delta), delta);
  delta_->setToolTip(tr("δ (delta): the tiny probability that the ε guarantee does not hold, "
                        "used when categories are selected privately. Keep it far below 1 / "
                        "the number of rows."));
  connect(delta_, &QComboBox::activated, this, [this](int index) {
    PrivacySettings next = session_->settings();
    next.model.delta = delta_->itemData(index).toDouble();
    edit(next, tr("Set δ"));
  });
  advanced_form->addRow(tr("δ:"), delta_);

  domain_share_ = new QDoubleSpinBox(box);
  // The minimum stands for "Automatic" (the engine's rule); 0 is allowed when every domain is
  // declared public.
  domain_share_->setDecimals(3);
  applySettingRange(domain_share_, "domain_fraction");
  domain_share_->setMinimum(kAutomaticShare);
  domain_share_->setSpecialValueText(tr("Automatic"));
  domain_share_->setSingleStep(0.05);
  domain_share_->setKeyboardTracking(false);
  domain_share_->setToolTip(tr("Share of ε spent on learning categories, numeric bins and "
                               "missing markers privately (for columns without public lists "
                               "or bounds). Automatic: set by a rule from a private row count "
                               "and the column types"));
  connect(domain_share_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    PrivacySettings next = session_->settings();
    if (value < 0) {
      // Anything typed below 0 means Automatic: show it as such.
      if (value != kAutomaticShare) {
        const QSignalBlocker block(domain_share_);
        domain_share_->setValue(kAutomaticShare);
      }
      next.model.domain_fraction.reset();
    } else {
      next.model.domain_fraction = value;
    }
    edit(next, tr("Set the share of ε for domains"));
  });
  advanced_form->addRow(tr("Share of ε for domains:"), domain_share_);

  structure_share_ = new QDoubleSpinBox(box);
  applySettingRange(structure_share_, "structure_fraction");
  structure_share_->setSingleStep(0.05);
  structure_share_->setKeyboardTracking(false);
  structure_share_->setToolTip(tr("Correlated mode: share of the model's ε spent on choosing "
                                  "which columns depend on which"));
  connect(structure_share_, &QDoubleSpinBox::valueChanged, this, [this](double value) {
    PrivacySettings next = session_->settings();
    next.model.structure_fraction = value;
    edit(next, tr("Set the share of ε for the structure"));
  });
  advanced_form->addRow(tr("Share for the structure:"), structure_share_);
  return box;
}

QWidget* PrivacyPage::buildRelease() {
  auto* box = new QGroupBox(tr("Release"), this);
  auto* form = new QFormLayout(box);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  rows_ = new QSpinBox(box);
  rows_->setRange(1, 2'000'000'000);
  rows_->setGroupSeparatorShown(true);
  rows_->setKeyboardTracking(false);
  rows_->setToolTip(tr("How many synthetic rows to produce"));
  same_rows_ = new QCheckBox(tr("Same as the input"), box);
  same_rows_->setToolTip(tr("Produce as many rows as your file has. Note: that reveals your "
                            "file's exact size."));
  rows_note_ = new QLabel(box);
  rows_note_->setWordWrap(true);
  connect(rows_, &QSpinBox::valueChanged, this, [this](int value) {
    PrivacySettings next = session_->settings();
    next.rows = static_cast<std::uint64_t>(value);
    edit(next, tr("Set the number of rows"));
  });
  connect(same_rows_, &QCheckBox::toggled, this, [this](bool same) {
    PrivacySettings next = session_->settings();
    next.rows = same ? 0 : session_->outputRows();
    edit(next, same ? tr("Release as many rows as the input") : tr("Choose the number of rows"));
  });
  auto* rows = new QHBoxLayout;
  rows->addWidget(rows_);
  rows->addWidget(same_rows_);
  rows->addStretch(1);
  form->addRow(tr("Synthetic rows:"), rows);
  form->addRow(QString(), rows_note_);

  reproducible_ = new QCheckBox(tr("Reproducible, NOT private (testing only)"), box);
  reproducible_->setToolTip(tr("Use a fixed random seed so that a run can be repeated exactly. "
                               "Anyone who knows the seed can remove the noise: never release "
                               "data made this way."));
  seed_ = new QSpinBox(box);
  seed_->setRange(0, 2'000'000'000);
  seed_->setKeyboardTracking(false);
  seed_->setToolTip(tr("The fixed seed (testing only)"));
  connect(reproducible_, &QCheckBox::toggled, this, [this](bool on) {
    PrivacySettings next = session_->settings();
    next.reproducible = on;
    edit(next, on ? tr("Make runs reproducible (NOT private)") : tr("Make runs private"));
  });
  connect(seed_, &QSpinBox::valueChanged, this, [this](int value) {
    PrivacySettings next = session_->settings();
    next.seed = static_cast<std::uint64_t>(value);
    edit(next, tr("Set the seed"));
  });
  auto* testing = new QHBoxLayout;
  testing->addWidget(reproducible_);
  testing->addWidget(new QLabel(tr("seed:"), box));
  testing->addWidget(seed_);
  testing->addStretch(1);
  form->addRow(tr("Randomness:"), testing);

  // The control split (engine/evaluate/control_split.h): the owner's choice, off by default.
  control_ = new QComboBox(box);
  control_->setObjectName(settingControlName(Setting("control_fraction")));
  for (double fraction : Setting("control_fraction").presets) control_->addItem(controlChoiceText(fraction), fraction);
  control_->setToolTip(tr(
      "Hold out rows to test the release against attacks: this share of your rows, chosen at "
      "random, is set aside before anything is learned. The model never sees them, so the "
      "Review's Attacks tab can compare what an attacker learns about the rows the release was "
      "made from with what it learns about people it never saw. Off by default: the rows held "
      "out are not used to make the release, which costs some utility (fewer rows to learn "
      "from). The split costs no ε; the ledger records its share."));
  connect(control_, &QComboBox::activated, this, [this](int index) {
    PrivacySettings next = session_->settings();
    next.model.control_fraction = control_->itemData(index).toDouble();
    edit(next, next.model.control_fraction > 0 ? tr("Hold out rows for the attack tests")
                                               : tr("Use every row (no attack tests)"));
  });
  control_note_ = new QLabel(box);
  control_note_->setObjectName(QStringLiteral("controlNote"));
  control_note_->setWordWrap(true);
  form->addRow(tr("Hold out rows to test the release against attacks:"), control_);
  form->addRow(QString(), control_note_);
  return box;
}

void PrivacyPage::edit(const PrivacySettings& settings, const QString& description, int gesture) {
  session_->editSettings(settings, description, gesture);
}

void PrivacyPage::refresh() {
  const PrivacySettings& settings = session_->settings();
  const ModelSettings& model = settings.model;
  for (std::size_t i = 0; i < cards_.size(); ++i) {
    const QSignalBlocker block(cards_[i]->radio());
    cards_[i]->setChecked(static_cast<std::size_t>(model.mode) == i);
  }
  epsilon_->setValue(model.epsilon);
  degree_->setValue(model.degree);
  {
    const QSignalBlocker block_auto(auto_bins_);
    auto_bins_->setChecked(model.bins == 0);
  }
  bins_->setValue(model.bins > 0 ? model.bins : automaticBins());
  const bool correlated = model.mode == SynthesisMode::kCorrelated;
  {
    const QSignalBlocker block_mechanism(mechanism_);
    mechanism_->setCurrentIndex(mechanism_->findData(static_cast<int>(model.marginals.mechanism)));
    mechanism_->setEnabled(model.mode == SynthesisMode::kMarginals);
  }
  degree_->setEnabled(correlated);
  structure_share_->setEnabled(correlated);
  // Random mode spends the whole budget on the domains: the share does not apply.
  domain_share_->setEnabled(model.mode != SynthesisMode::kRandom);
  bins_->setEnabled(model.bins > 0);
  {
    const QSignalBlocker block_delta(delta_);
    int index = delta_->findData(model.delta);
    if (index < 0) {
      delta_->addItem(formatDelta(model.delta), model.delta);
      index = delta_->count() - 1;
    }
    delta_->setCurrentIndex(index);
    const QSignalBlocker block_domain(domain_share_);
    domain_share_->setValue(model.domain_fraction ? *model.domain_fraction : kAutomaticShare);
    const QSignalBlocker block_structure(structure_share_);
    structure_share_->setValue(model.structure_fraction);
    const QSignalBlocker block_rows(rows_);
    rows_->setValue(static_cast<int>(std::min<std::size_t>(session_->outputRows(), 2'000'000'000)));
    const QSignalBlocker block_same(same_rows_);
    same_rows_->setChecked(settings.rows == 0);
    const QSignalBlocker block_reproducible(reproducible_);
    reproducible_->setChecked(settings.reproducible);
    const QSignalBlocker block_seed(seed_);
    seed_->setValue(static_cast<int>(settings.seed));
  }
  {
    const QSignalBlocker block_control(control_);
    int index = control_->findData(model.control_fraction);
    if (index < 0) {  // a project file's other share
      control_->addItem(controlChoiceText(model.control_fraction), model.control_fraction);
      index = control_->count() - 1;
    }
    control_->setCurrentIndex(index);
  }
  control_note_->setText(
      model.control_fraction > 0
          ? tr("The release is made from the other %1 % of the rows; Review → Attacks tests it "
               "against the rows held out.")
                .arg(formatDecimal(100 * (1 - model.control_fraction), 3))
          : tr("Off: every row is used. Review → Attacks then explains how to test the "
               "release against attacks."));
  rows_->setEnabled(settings.rows != 0);
  seed_->setEnabled(settings.reproducible);
  if (session_->hasInput()) {
    rows_note_->setText(
        settings.rows == 0
            ? tr("Your file has %1. Releasing exactly that many rows reveals its size.")
                  .arg(formatRows(session_->data()->table->num_rows()))
            : tr("The number of released rows is public; it reveals nothing else about your "
                 "data."));
  }
  QString guarantee = guaranteeHtml(summarizeGuarantee(*session_, /*use_result=*/false),
                                   /*with_notes=*/false, /*with_mode=*/false,
                                   /*with_warnings=*/false);
  if (session_->hasInput() && model.Validate()) {
    // How the run will split ε (the engine's rule, with this input's row count standing for
    // the run's private count): the Columns step shows what that keeps of each column.
    const DomainBudget budget =
        plannedDomainBudget(session_->schema(), session_->data()->table->num_rows(), settings);
    guarantee += QStringLiteral("<p style=\"margin-top:6px\">%1</p>")
                     .arg(tr("How ε is split: %1. The Columns step shows what that keeps of "
                             "each column.")
                              .arg(domainRuleText(budget, settings).toHtmlEscaped()));
    domain_share_->setSpecialValueText(
        tr("Automatic (%1)").arg(formatDecimal(budget.total() / model.epsilon, 2)));
  } else {
    domain_share_->setSpecialValueText(tr("Automatic"));
  }
  guarantee_->setText(guarantee);
}

QString PrivacyPage::passRateText() const { return deniable_->passRateText(); }

PassRateGrid* PrivacyPage::passRateGrid() const { return deniable_->passRateGrid(); }

void PrivacyPage::showMoreSettings() {
  more_->setChecked(true);
  // Once the newly shown rows are laid out.
  QTimer::singleShot(0, this, [this] { scroll_->ensureWidgetVisible(structure_share_); });
}

void PrivacyPage::showControlSplit() {
  scroll_->ensureWidgetVisible(control_);
  control_->setFocus(Qt::OtherFocusReason);
}

void PrivacyPage::showDeniableSettings() { scroll_->ensureWidgetVisible(deniable_->scrollTarget()); }

QString PrivacyPage::guaranteeText() const { return guarantee_->text(); }

}  // namespace deniable::ui
