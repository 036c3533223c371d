// SPDX-License-Identifier: Apache-2.0
// Application setup shared by the app and the UI tests.
#pragma once

namespace deniable::ui {

// Makes sure text renders offscreen: when the platform's font database is empty (no
// fontconfig fonts visible, e.g. a minimal container), registers the DejaVu fonts shipped by
// fonts-dejavu-core so glyphs are not drawn as empty boxes. Call after creating the
// QApplication. Returns the number of font families available afterwards (0 means text cannot render).
int ensureFonts();

// Registers the resources compiled into the deniable_ui static library (icons): a static
// library's resources must be initialised explicitly (Q_INIT_RESOURCE). Idempotent.
void ensureResources();

}  // namespace deniable::ui
