// SPDX-License-Identifier: Apache-2.0
// The undo steps of a Session: a change of the column settings (the whole schema before and
// after: a few kilobytes) and a change of the privacy settings, which merges with the previous
// step of the same gesture (a slider drag pushes many values but is one undo step).
#pragma once

#include <QUndoCommand>

#include "engine/schema/schema.h"
#include "ui/session/session_values.h"

namespace deniable::ui {

class Session;

class SchemaCommand final : public QUndoCommand {
 public:
  SchemaCommand(Session* session, Schema before, Schema after, const QString& text);
  void undo() override;
  void redo() override;

 private:
  Session* session_;
  Schema before_;
  Schema after_;
};

class SettingsCommand final : public QUndoCommand {
 public:
  static constexpr int kId = 0x5e77;

  SettingsCommand(Session* session, PrivacySettings before, PrivacySettings after,
                  const QString& text, int gesture);
  void undo() override;
  void redo() override;
  int id() const override { return gesture_ != 0 ? kId : -1; }
  bool mergeWith(const QUndoCommand* other) override;

 private:
  Session* session_;
  PrivacySettings before_;
  PrivacySettings after_;
  int gesture_;
};

}  // namespace deniable::ui
