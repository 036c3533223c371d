// SPDX-License-Identifier: Apache-2.0
#include "ui/session/undo_commands.h"

#include "ui/session/session.h"

namespace deniable::ui {

SchemaCommand::SchemaCommand(Session* session, Schema before, Schema after, const QString& text)
    : QUndoCommand(text), session_(session), before_(std::move(before)), after_(std::move(after)) {}

void SchemaCommand::undo() { session_->applySchema(before_); }
void SchemaCommand::redo() { session_->applySchema(after_); }

SettingsCommand::SettingsCommand(Session* session, PrivacySettings before, PrivacySettings after,
                                 const QString& text, int gesture)
    : QUndoCommand(text),
      session_(session),
      before_(std::move(before)),
      after_(std::move(after)),
      gesture_(gesture) {}

void SettingsCommand::undo() { session_->applySettings(before_); }
void SettingsCommand::redo() { session_->applySettings(after_); }

bool SettingsCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const SettingsCommand*>(other);  // same id() => same type
  if (next->gesture_ != gesture_) return false;
  after_ = next->after_;
  // A drag that ends where it started changes nothing: the stack drops the step.
  if (SameSettings(after_, before_)) setObsolete(true);
  return true;
}

}  // namespace deniable::ui
