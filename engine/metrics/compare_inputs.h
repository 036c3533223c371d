// SPDX-License-Identifier: Apache-2.0
// Internal to engine/metrics: the checks every comparison entry point makes on its inputs.
#pragma once

#include <cstdint>

#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/metrics/marginals.h"

namespace deniable::internal {

// kInvalidArgument naming the first bad option and its value.
Status ValidateCompareOptions(const CompareOptions& options);

// The table's row count: the common length of its columns' code vectors. `which` ("real",
// "synthetic") names the table in errors: no columns or no rows (kFailedPrecondition), columns
// of different lengths (kInternal: a bug in whoever built the table), 2^32 rows or more.
Result<std::uint64_t> CheckedRowCount(const RawTable& table, const char* which);

}  // namespace deniable::internal
