// SPDX-License-Identifier: Apache-2.0
// Encoding real rows into domain codes, and decoding synthetic codes into output values.
//
// Decoding never copies a real record's value: a categorical code becomes its (public or DP)
// category label; a numeric bin becomes a value drawn uniformly inside the bin (integers
// rounded, clamped to [lo, hi]); missing becomes an empty cell; identifiers are generated
// fresh from the column's public id_pattern. So a released value is a function of codes and
// public/DP facts only.
#pragma once

#include <string>
#include <vector>

#include "engine/core/progress.h"
#include "engine/core/random.h"
#include "engine/core/result.h"
#include "engine/core/table.h"
#include "engine/model/domain.h"
#include "engine/model/encoded_table.h"
#include "engine/schema/schema.h"

namespace deniable {

// Codes for the modelled columns (ModelledColumns(schema) order) under `domains`.
Result<EncodedTable> Encode(const RawTable& table, const Schema& schema,
                            const std::vector<ColumnDomain>& domains, Progress& progress);

struct DecodeOptions {
  char delimiter = ',';
  bool crlf = false;
};

// Writes the synthetic table as CSV (atomically): the schema's non-ignored columns in their
// original order; identifier columns regenerated (unique). `rng` draws values within bins and
// identifiers (post-processing).
Status WriteSyntheticCsv(const std::string& path, const EncodedTable& synthetic,
                         const Schema& schema, const std::vector<ColumnDomain>& domains,
                         const DecodeOptions& options, Rng& rng, Progress& progress);

// The same decoding into a RawTable (for metrics and the GUI's views without a file).
Result<RawTable> DecodeToRawTable(const EncodedTable& synthetic, const Schema& schema,
                                  const std::vector<ColumnDomain>& domains, Rng& rng,
                                  Progress& progress);

}  // namespace deniable
