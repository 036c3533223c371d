// SPDX-License-Identifier: Apache-2.0
#include "ui/session/session.h"

#include <QUndoStack>

#include "engine/schema/schema_json.h"
#include "ui/session/undo_commands.h"

namespace deniable::ui {
namespace {

bool SameSchema(const Schema& a, const Schema& b) {
  return SchemaToJson(a, /*include_stats=*/false) == SchemaToJson(b, /*include_stats=*/false);
}

// The fields of `current` that differ from `base` (one column's JSON objects). A public bound
// or category list that `base` had and `current` lacks is written as null (clears it).
nlohmann::json ColumnDifference(const nlohmann::json& base, const nlohmann::json& current) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [key, value] : current.items()) {
    if (key == "name" || key == "stats") continue;
    if (base.contains(key) && base[key] == value) continue;
    if (key == "public") {
      nlohmann::json bounds = value;
      if (base.contains("public")) {
        for (const auto& [bound, _] : base["public"].items()) {
          if (!bounds.contains(bound)) bounds[bound] = nullptr;
        }
      }
      out[key] = bounds;
    } else {
      out[key] = value;
    }
  }
  return out;
}

}  // namespace

Session::Session(QObject* parent) : QObject(parent), undo_stack_(new QUndoStack(this)) {}

Session::~Session() = default;

void Session::setData(std::shared_ptr<const LoadedData> data, const PrivacySettings* settings) {
  undo_stack_->clear();
  data_ = std::move(data);
  schema_ = data_ ? data_->schema : Schema{};
  if (settings != nullptr) settings_ = *settings;
  result_.reset();
  advice_.reset();
  reviewed_ = false;
  exported_ = false;
  run_error_.clear();
  emit dataChanged();
  emit schemaChanged();
  emit settingsChanged();
  emit resultChanged();
  emit adviceChanged();
  emit stateChanged();
}

void Session::clear() { setData(nullptr); }

Status Session::editColumns(const nlohmann::json& corrections, const QString& description) {
  if (!data_) return FailedPrecondition("no input is open");
  nlohmann::json json = corrections;
  if (!json.contains("format")) json["format"] = "deniable-schema";
  if (!json.contains("version")) json["version"] = 1;
  auto next = ApplySchemaJson(schema_, json, "column settings", data_->table.get());
  if (!next) return next.error();
  if (SameSchema(next.value(), schema_)) return OkStatus();
  undo_stack_->push(new SchemaCommand(this, schema_, std::move(next.value()), description));
  return OkStatus();
}

Status Session::loadSchemaJson(const nlohmann::json& json, const std::string& source,
                               const QString& description) {
  if (!data_) return FailedPrecondition("no input is open");
  auto next = ApplySchemaJson(data_->inferred, json, source, data_->table.get());
  if (!next) return next.error();
  if (SameSchema(next.value(), schema_)) return OkStatus();
  undo_stack_->push(new SchemaCommand(this, schema_, std::move(next.value()), description));
  return OkStatus();
}

void Session::resetColumns() {
  if (!data_ || SameSchema(data_->inferred, schema_)) return;
  undo_stack_->push(new SchemaCommand(this, schema_, data_->inferred, tr("Reset column settings")));
}

nlohmann::json Session::corrections() const {
  nlohmann::json out = {{"format", "deniable-schema"}, {"version", 1}};
  if (!data_) return out;
  const nlohmann::json base = SchemaToJson(data_->inferred, false);
  const nlohmann::json current = SchemaToJson(schema_, false);
  if (base["csv"] != current["csv"]) out["csv"] = current["csv"];
  if (base["categorical_threshold"] != current["categorical_threshold"]) {
    out["categorical_threshold"] = current["categorical_threshold"];
  }
  nlohmann::json columns = nlohmann::json::array();
  for (std::size_t i = 0; i < current["columns"].size() && i < base["columns"].size(); ++i) {
    nlohmann::json difference = ColumnDifference(base["columns"][i], current["columns"][i]);
    if (difference.empty()) continue;
    difference["name"] = current["columns"][i]["name"];
    columns.push_back(std::move(difference));
  }
  out["columns"] = std::move(columns);
  return out;
}

void Session::editSettings(const PrivacySettings& settings, const QString& description,
                           int gesture) {
  if (SameSettings(settings, settings_)) return;
  undo_stack_->push(new SettingsCommand(this, settings_, settings, description, gesture));
}

std::size_t Session::outputRows() const {
  if (settings_.rows > 0) return static_cast<std::size_t>(settings_.rows);
  return data_ ? data_->table->num_rows() : 0;
}

void Session::setResult(std::shared_ptr<const RunRecord> result) {
  result_ = std::move(result);
  reviewed_ = false;
  exported_ = false;
  run_error_.clear();
  emit resultChanged();
  emit stateChanged();
}

bool Session::resultIsStale() const {
  if (!result_) return false;
  const RunRequest& made = result_->request;
  return made.data != data_ || made.rows != outputRows() || !SameSchema(made.schema, schema_) ||
         !SameSettings(made.settings, settings_);
}

void Session::setAdvice(std::shared_ptr<const AdviceRecord> advice) {
  advice_ = std::move(advice);
  emit adviceChanged();
}

bool Session::adviceIsStale() const {
  if (!advice_) return false;
  auto without_sweep = [](PrivacySettings settings) {
    settings.model.deniable.k = 0;
    settings.model.deniable.omega_min = settings.model.deniable.omega_max = 0;
    settings.rows = 0;
    return settings;
  };
  return advice_->request.data != data_ || !SameSchema(advice_->request.schema, schema_) ||
         !SameSettings(without_sweep(advice_->request.settings), without_sweep(settings_));
}

void Session::markReviewed() {
  if (reviewed_ || !result_) return;
  reviewed_ = true;
  emit stateChanged();
}

void Session::markExported() {
  exported_ = true;
  emit stateChanged();
}

void Session::setRunError(const QString& message) {
  run_error_ = message;
  emit stateChanged();
}

void Session::applySchema(const Schema& schema) {
  schema_ = schema;
  emit schemaChanged();
  emit stateChanged();
}

void Session::applySettings(const PrivacySettings& settings) {
  settings_ = settings;
  emit settingsChanged();
  emit stateChanged();
}

}  // namespace deniable::ui
