// SPDX-License-Identifier: Apache-2.0
// Makes sure text renders offscreen: when the platform's font database is empty (no
// fontconfig fonts visible, e.g. a minimal container), registers the DejaVu fonts shipped by
// fonts-dejavu-core so glyphs are not drawn as empty boxes. Call after creating the
// QApplication.
#pragma once

namespace deniable::ui {

// Returns the number of font families available afterwards (0 means text cannot render).
int ensureFonts();

}  // namespace deniable::ui
