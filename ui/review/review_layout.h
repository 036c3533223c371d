// SPDX-License-Identifier: Apache-2.0
// Layout pieces the Review's text-and-table tabs share (Privacy, Disclosure risk, Attacks): a
// read-only fact table, a tab whose whole content scrolls, and the tabs' labels and boxes.
#pragma once

class QLabel;
class QString;
class QTableView;
class QWidget;

namespace deniable::ui {

// Read-only, whole rows selected, no row numbers, columns sized to their contents (the last
// one stretched), rows one text line high.
void setUpFactTable(QTableView* view);

// Puts `content` in a frameless, resizable scroll area filling `tab` (which gets the layout).
void fillWithScrollArea(QWidget* tab, QWidget* content);

// A word-wrapped, selectable rich-text label named `objectName` (its style sheet's selector).
QLabel* wrappedLabel(const QString& objectName);

// The boxes of the tabs computed on a worker: the red "for your eyes only" note, the blue
// result box, the grey scope line, the yellow explanation of what is missing.
enum class NoteStyle { kOwnerOnly, kResult, kScope, kExplanation };
void styleNote(QLabel* label, NoteStyle style);
// A kOwnerOnly label named "ownerOnly" with `html`.
QLabel* ownerOnlyNote(const QString& html);

}  // namespace deniable::ui
