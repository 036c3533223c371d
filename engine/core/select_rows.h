// SPDX-License-Identifier: Apache-2.0
// Row selection on dictionary-encoded tables (table.h): a subset, a permutation or a resample of
// a column's or a table's rows, re-encoded so the result is a RawTable like one read from a
// file (dictionary in order of first appearance, counts and first rows of its own rows only).
// Used by the control split (evaluate/control_split.h) and by tests that build reference tables.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/table.h"

namespace deniable {

// The cells column.codes[rows[0]], column.codes[rows[1]], ... (any order, repeats allowed),
// re-encoded. Every entry of `rows` must be below column.num_rows().
RawColumn SelectRawColumnRows(const RawColumn& column, const std::vector<std::uint32_t>& rows);

// The rows of `table` listed in `rows` (any order, repeats allowed), every column re-encoded as
// SelectRawColumnRows does; source, dialect and the rows' line numbers are kept.
RawTable SelectRawRows(const RawTable& table, const std::vector<std::uint32_t>& rows);

}  // namespace deniable
