// SPDX-License-Identifier: Apache-2.0
// The plausibly deniable mode's settings, reached through ModelSettings::deniable once the
// pipeline has that field (the lead is wiring engine/deniable into engine/pipeline). Until
// then kDeniableAvailable is false and the Privacy page shows the mode as "coming"; the UI code
// needs no change when the field lands.
#pragma once

#include "engine/deniable/deniable_options.h"
#include "engine/pipeline/synthesis_job.h"

namespace deniable::ui {

template <typename Settings>
concept SettingsWithDeniable = requires(Settings settings) { settings.deniable.k; };

inline constexpr bool kDeniableAvailable = SettingsWithDeniable<ModelSettings>;

template <typename Settings>
DeniableOptions deniableOptionsOf(const Settings& settings) {
  if constexpr (SettingsWithDeniable<Settings>) {
    return settings.deniable;
  } else {
    return DeniableOptions{};
  }
}

template <typename Settings>
void setDeniableOptions(Settings& settings, const DeniableOptions& options) {
  if constexpr (SettingsWithDeniable<Settings>) settings.deniable = options;
}

}  // namespace deniable::ui
