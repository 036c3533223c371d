// SPDX-License-Identifier: Apache-2.0
// Engine errors as sentences for people: what kind of problem, then the engine's message
// (which already names the file:line:column or the parameter and its value).
#pragma once

#include <QString>

#include "engine/core/result.h"

namespace deniable::ui {

QString describeError(const Error& error);

}  // namespace deniable::ui
