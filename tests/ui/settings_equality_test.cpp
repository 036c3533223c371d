// SPDX-License-Identifier: Apache-2.0
// Settings equality covers every setting (issue 12, parts 5 and 7): SameSettings tells apart
// two settings that differ in any one field (the Session's "settings changed since the run"
// uses it), the project file round-trips every setting a user can choose, and the Export
// page's "settings changed" banner appears only after a real change since the run.
#include <functional>
#include <utility>

#include <QSettings>
#include <QTemporaryDir>
#include <QUndoStack>
#include <gtest/gtest.h>

#include "engine/pipeline/settings_table.h"
#include "tests/ui/ui_test_support.h"
#include "ui/main_window.h"
#include "ui/pages/export_page.h"
#include "ui/project/project_file.h"
#include "ui/session/session.h"
#include "ui/tasks/jobs.h"

namespace deniable::ui {
namespace {

using Change = std::pair<const char*, std::function<void(PrivacySettings&)>>;

// One change per field a user can set (GUI or CLI), each away from its default.
std::vector<Change> UserSettingChanges() {
  return {
      {"mode", [](PrivacySettings& s) { s.model.mode = SynthesisMode::kDeniable; }},
      {"epsilon", [](PrivacySettings& s) { s.model.epsilon = 2.5; }},
      {"delta", [](PrivacySettings& s) { s.model.delta = 1e-7; }},
      {"domain_fraction", [](PrivacySettings& s) { s.model.domain_fraction = 0.125; }},
      {"bins", [](PrivacySettings& s) { s.model.bins = 17; }},
      {"degree", [](PrivacySettings& s) { s.model.degree = 3; }},
      {"structure_fraction", [](PrivacySettings& s) { s.model.structure_fraction = 0.4; }},
      {"other_label", [](PrivacySettings& s) { s.model.other_label = "Rest"; }},
      {"k", [](PrivacySettings& s) { s.model.deniable.k = 20; }},
      {"gamma", [](PrivacySettings& s) { s.model.deniable.gamma = 2.5; }},
      {"omega_min", [](PrivacySettings& s) { s.model.deniable.omega_min = 3; }},
      {"omega_max", [](PrivacySettings& s) { s.model.deniable.omega_max = 9; }},
      {"epsilon0", [](PrivacySettings& s) { s.model.deniable.epsilon0 = 0.5; }},
      {"maxcost", [](PrivacySettings& s) { s.model.deniable.maxcost = 4096; }},
      {"deterministic_test", [](PrivacySettings& s) { s.model.deniable.deterministic_test = true; }},
      {"structure",
       [](PrivacySettings& s) { s.model.deniable.structure = DeniableStructure::kPrivBayes; }},
      {"split", [](PrivacySettings& s) {
         s.model.deniable.split_structure = 0.3;
         s.model.deniable.split_parameters = 0.3;
         s.model.deniable.split_seeds = 0.4;
       }},
      {"max_candidates", [](PrivacySettings& s) { s.model.deniable.max_candidates = 123'456; }},
      {"mechanism",
       [](PrivacySettings& s) { s.model.marginals.mechanism = MarginalsMechanism::kMst; }},
      {"rounds", [](PrivacySettings& s) { s.model.marginals.rounds = 7; }},
      {"max_model_mb", [](PrivacySettings& s) { s.model.marginals.max_model_mb = 2.5; }},
      {"target", [](PrivacySettings& s) { s.model.marginals.target = "income"; }},
      {"iterations", [](PrivacySettings& s) { s.model.marginals.iterations = 300; }},
      {"rows", [](PrivacySettings& s) { s.rows = 777; }},
      {"reproducible", [](PrivacySettings& s) { s.reproducible = true; }},
      {"seed", [](PrivacySettings& s) { s.seed = 99; }},
  };
}

// Fields only the engine or an expert sets; equality must still see them.
std::vector<Change> OtherFieldChanges() {
  return {
      {"record_delta", [](PrivacySettings& s) { s.model.deniable.record_delta = 1e-6; }},
      {"fail_floor", [](PrivacySettings& s) { s.model.deniable.fail_floor = 0.02; }},
      {"model_epsilon", [](PrivacySettings& s) { s.model.deniable.model_epsilon = 0.5; }},
      {"usefulness_theta", [](PrivacySettings& s) { s.model.deniable.usefulness_theta = 2; }},
      {"bucket_count", [](PrivacySettings& s) { s.model.deniable.bucket_count = 4; }},
      {"dirichlet_alpha", [](PrivacySettings& s) { s.model.deniable.dirichlet_alpha = 0.5; }},
      {"privbayes_degree", [](PrivacySettings& s) { s.model.deniable.privbayes_degree = 3; }},
      {"records", [](PrivacySettings& s) { s.model.deniable.records = 10; }},
      {"charge_release_to_budget",
       [](PrivacySettings& s) { s.model.deniable.charge_release_to_budget = false; }},
      {"seed_count_epsilon", [](PrivacySettings& s) { s.model.deniable.seed_count_epsilon = 0.25; }},
  };
}

TEST(SettingsEquality, EveryFieldCounts) {
  const PrivacySettings base;
  std::vector<Change> changes = UserSettingChanges();
  for (Change& change : OtherFieldChanges()) changes.push_back(std::move(change));
  for (const auto& [name, apply] : changes) {
    PrivacySettings changed = base;
    apply(changed);
    EXPECT_FALSE(SameSettings(base, changed)) << name;
    EXPECT_TRUE(SameSettings(changed, changed)) << name;
  }
}

// Every row of the settings table, flipped to its example value: SameSettings sees it (the
// threads, a preference, excepted) and the project file round-trips it.
TEST(SettingsEquality, EveryRowOfTheSettingsTableCountsAndRoundTrips) {
  const PrivacySettings base;
  for (const SettingSpec& spec : ModelSettingsTable()) {
    PrivacySettings changed = base;
    spec.set(changed.model, spec.example);
    if (std::string(spec.name) == "omega_min") changed.model.deniable.omega_max = 9;
    EXPECT_EQ(SameSettings(base, changed), !spec.persisted) << spec.name;
    if (!spec.persisted) continue;
    auto back = PrivacySettingsFromJson(PrivacySettingsToJson(changed), "test");
    ASSERT_TRUE(back.has_value()) << spec.name << ": " << back.error().message;
    EXPECT_TRUE(back.value() == changed) << spec.name;
  }
}

TEST(SettingsEquality, WorkerThreadsDoNotCount) {
  PrivacySettings a;
  PrivacySettings b;
  b.model.threads = 7;
  b.model.deniable.threads = 3;
  EXPECT_TRUE(SameSettings(a, b));
}

TEST(SettingsEquality, ProjectJsonRoundTripsEveryUserSetting) {
  PrivacySettings all;
  for (const auto& [name, apply] : UserSettingChanges()) {
    PrivacySettings one;
    apply(one);
    auto back = PrivacySettingsFromJson(PrivacySettingsToJson(one), "test");
    ASSERT_TRUE(back.has_value()) << name << ": " << back.error().message;
    EXPECT_TRUE(back.value() == one) << name;
    apply(all);
  }
  auto back = PrivacySettingsFromJson(PrivacySettingsToJson(all), "test");
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_TRUE(back.value() == all);
}

TEST(SettingsEquality, BadFieldsNameThemselves) {
  const PrivacySettings defaults;
  nlohmann::json json = PrivacySettingsToJson(defaults);
  json["deniable"]["structure"] = "tree";
  auto bad = PrivacySettingsFromJson(json, "p.deniable");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message,
            "p.deniable: settings.deniable.structure: must be cfs, privbayes or marginals (got "
            "'tree')");
  json = PrivacySettingsToJson(defaults);
  json["deniable"]["split"] = {0.5, 0.5};
  bad = PrivacySettingsFromJson(json, "p.deniable");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message,
            "p.deniable: settings.deniable.split: expects 3 numbers (got [0.5,0.5])");
  json = PrivacySettingsToJson(defaults);
  json["bins"] = 1001;
  bad = PrivacySettingsFromJson(json, "p.deniable");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message,
            "p.deniable: settings.bins: must be between 2 and 1000, or 0 / auto for automatic (got "
            "1001)");
}

// A result made with the current settings is stale after a change to any one setting the
// equality used to drop, and fresh again when the change is undone.
TEST(SettingsEquality, ResultIsStaleAfterAnyChange) {
  Session session;
  session.setData(test_support::loadDemo());
  auto record = std::make_shared<RunRecord>();
  record->request.data = session.data();
  record->request.schema = session.schema();
  record->request.settings = session.settings();
  record->request.settings.model.threads = 2;  // as JobController sets it from the preferences
  record->request.rows = session.outputRows();
  session.setResult(record);
  ASSERT_FALSE(session.resultIsStale());
  for (const auto& [name, apply] : UserSettingChanges()) {
    if (std::string(name) == "rows") continue;  // changes the run's row count: tested elsewhere
    PrivacySettings changed = session.settings();
    apply(changed);
    session.editSettings(changed, QString::fromLatin1(name));
    EXPECT_TRUE(session.resultIsStale()) << name;
    session.undoStack()->undo();
    EXPECT_FALSE(session.resultIsStale()) << name;
  }
}

class ExportBannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    QSettings().clear();
    window_.resize(1280, 800);
    window_.show();
    const auto opened = test_support::runJob(*window_.jobs(), [this] { window_.openDemo(); });
    ASSERT_EQ(opened.end, JobController::End::kSucceeded) << opened.message.toStdString();
    PrivacySettings settings = window_.session()->settings();
    settings.model.mode = SynthesisMode::kIndependent;  // a fast run
    settings.rows = 500;
    window_.session()->editSettings(settings, QStringLiteral("fast"));
  }

  void Run() {
    const auto run = test_support::runJob(*window_.jobs(), [this] { window_.jobs()->startRun(); });
    ASSERT_EQ(run.end, JobController::End::kSucceeded) << run.message.toStdString();
  }

  bool BannerSaysSettingsChanged() const {
    auto* banner = window_.exportPage()->findChild<MessageBanner*>();
    return banner != nullptr && banner->isVisibleTo(window_.exportPage()) &&
           window_.exportPage()->bannerText().contains(QStringLiteral("settings changed"));
  }

  MainWindow window_;
};

TEST_F(ExportBannerTest, OnlyAfterARealChange) {
  Run();
  for (int step = 0; step < kStepCount; ++step) window_.showStep(static_cast<Step>(step));
  EXPECT_FALSE(BannerSaysSettingsChanged()) << window_.exportPage()->bannerText().toStdString();

  PrivacySettings settings = window_.session()->settings();
  settings.model.epsilon = 2;
  window_.session()->editSettings(settings, QStringLiteral("ε"));
  EXPECT_TRUE(BannerSaysSettingsChanged());
  window_.session()->undoStack()->undo();  // back to the run's settings
  EXPECT_FALSE(BannerSaysSettingsChanged());

  window_.session()->undoStack()->redo();
  EXPECT_TRUE(BannerSaysSettingsChanged());
  Run();  // a new run with the changed settings: nothing changed since it
  window_.showStep(Step::kExport);
  EXPECT_FALSE(BannerSaysSettingsChanged()) << window_.exportPage()->bannerText().toStdString();

  QTemporaryDir dir;
  window_.exportPage()->setDirectory(dir.path());
  const auto exported = test_support::runJob(
      *window_.jobs(), [this] { ASSERT_TRUE(window_.exportPage()->startExport()); });
  ASSERT_EQ(exported.end, JobController::End::kSucceeded) << exported.message.toStdString();
  EXPECT_FALSE(BannerSaysSettingsChanged()) << window_.exportPage()->bannerText().toStdString();
  EXPECT_TRUE(window_.exportPage()->bannerText().startsWith(QStringLiteral("Exported")))
      << window_.exportPage()->bannerText().toStdString();
}

}  // namespace
}  // namespace deniable::ui
