// SPDX-License-Identifier: Apache-2.0
// Session: the state of one workflow — the loaded input, the column settings (schema), the
// privacy settings, the last run's result — and the undo stack for every change a user makes
// to columns and privacy parameters. Pages read it and edit it only through the undoable
// edit*() methods; the JobController stores what background jobs produce.
//
// Lives on the UI thread. Holds values and shared_ptrs to immutable values, so a background job
// can be handed what it needs by copy.
#pragma once

#include <cstdint>
#include <memory>

#include <QObject>
#include <QString>
#include <nlohmann/json.hpp>

#include "engine/core/result.h"
#include "engine/schema/schema.h"
#include "ui/session/session_values.h"

class QUndoStack;

namespace deniable::ui {

class Session : public QObject {
  Q_OBJECT

 public:
  explicit Session(QObject* parent = nullptr);
  ~Session() override;

  QUndoStack* undoStack() const { return undo_stack_; }

  // ---- Input ----
  bool hasInput() const { return data_ != nullptr; }
  const std::shared_ptr<const LoadedData>& data() const { return data_; }
  // A new input: its schema becomes current, the result and the undo history are cleared
  // (they belong to the previous input). `settings` (e.g. from a project file) replace the
  // current ones when given.
  void setData(std::shared_ptr<const LoadedData> data,
               const PrivacySettings* settings = nullptr);
  void clear();

  // ---- Column settings (undoable) ----
  const Schema& schema() const { return schema_; }
  // Applies a partial schema JSON (the CLI's format) to the current schema with the engine's
  // ApplySchemaJson and, when it is valid and changes something, pushes one undo step.
  // Errors are the engine's, naming the JSON path and value.
  Status editColumns(const nlohmann::json& corrections, const QString& description);
  // Replaces the column settings with a schema file's (applied to the inferred schema).
  Status loadSchemaJson(const nlohmann::json& json, const std::string& source,
                        const QString& description);
  // Back to the inferred schema (one undo step).
  void resetColumns();
  // The corrections the user made, as a partial schema JSON (only changed fields of changed
  // columns; csv settings when changed). Applying it to the inferred schema gives schema().
  nlohmann::json corrections() const;

  // ---- Privacy settings (undoable) ----
  const PrivacySettings& settings() const { return settings_; }
  // One undo step, or — when `gesture` is non-zero and equals the previous step's — merged
  // into it (one slider drag = one undo step). Unchanged settings push nothing.
  void editSettings(const PrivacySettings& settings, const QString& description,
                    int gesture = 0);
  int newGesture() { return ++last_gesture_; }
  // The synthetic row count the next run produces (settings.rows, or the input's row count).
  std::size_t outputRows() const;

  // ---- Result ----
  const std::shared_ptr<const RunRecord>& result() const { return result_; }
  void setResult(std::shared_ptr<const RunRecord> result);
  // True when columns or privacy settings changed since the result was made.
  bool resultIsStale() const;
  bool reviewed() const { return reviewed_; }
  void markReviewed();
  bool exported() const { return exported_; }
  void markExported();
  // The last run's error (cleared by the next successful run or a new input).
  const QString& runError() const { return run_error_; }
  void setRunError(const QString& message);

  // ---- Deniable-mode advice (owner only) ----
  const std::shared_ptr<const AdviceRecord>& advice() const { return advice_; }
  void setAdvice(std::shared_ptr<const AdviceRecord> advice);
  // True when the advice was computed for other columns or settings (k and ω aside: it sweeps
  // them).
  bool adviceIsStale() const;

  // Used by the undo commands only: set without recording.
  void applySchema(const Schema& schema);
  void applySettings(const PrivacySettings& settings);

 signals:
  void dataChanged();
  void schemaChanged();
  void settingsChanged();
  void resultChanged();
  void adviceChanged();
  // Anything that can change a workflow step's state (stale, reviewed, exported, errors).
  void stateChanged();

 private:
  QUndoStack* undo_stack_;
  std::shared_ptr<const LoadedData> data_;
  Schema schema_;
  PrivacySettings settings_;
  std::shared_ptr<const RunRecord> result_;
  std::shared_ptr<const AdviceRecord> advice_;
  bool reviewed_ = false;
  bool exported_ = false;
  QString run_error_;
  int last_gesture_ = 0;
};

}  // namespace deniable::ui
