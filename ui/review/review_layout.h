// SPDX-License-Identifier: Apache-2.0
// Layout pieces the Review's text-and-table tabs share (Privacy, Disclosure risk): a read-only
// fact table, and a tab whose whole content scrolls.
#pragma once

class QTableView;
class QWidget;

namespace deniable::ui {

// Read-only, whole rows selected, no row numbers, columns sized to their contents (the last
// one stretched), rows one text line high.
void setUpFactTable(QTableView* view);

// Puts `content` in a frameless, resizable scroll area filling `tab` (which gets the layout).
void fillWithScrollArea(QWidget* tab, QWidget* content);

}  // namespace deniable::ui
