// SPDX-License-Identifier: Apache-2.0
// 128-bit integers (a GCC/Clang extension; `__extension__` keeps -Wpedantic quiet).
#pragma once

namespace deniable {
__extension__ typedef unsigned __int128 Uint128;
__extension__ typedef __int128 Int128;
}  // namespace deniable
