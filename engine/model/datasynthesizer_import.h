// SPDX-License-Identifier: Apache-2.0
// Import of DataSynthesizer's dataset description files (DataResponsibly/DataSynthesizer,
// `DataDescriber.save_dataset_description_to_file`), so that `generate` can sample from them.
//
// What it reads: meta.all_attributes (column order), attribute_description (data_type,
// is_categorical, is_candidate_key, min, max, missing_rate, distribution_bins — categories,
// or left edges of equal-width bins over [min, max], or string-length bins for a
// "non-categorical string" — and distribution_probabilities), and in correlated mode
// bayesian_network ([child, [parents]] in sampling order; the root is the first parent of the
// first pair) with conditional_probabilities (the root's list; for a child, one distribution
// per key "[i, j]" of the parents' bin indices; an attribute with missing values has one more
// index, len(bins), for "missing").
// What it cannot do: model what DataSynthesizer did not (its non-categorical strings, e.g.
// native-country, get random strings with DataSynthesizer's length distribution, as
// DataSynthesizer itself generates — describe the real data with Deniable to model them with
// DP partition selection). The import is flagged in the description's warnings, including
// that DataSynthesizer's min/max, category lists and num_tuples are read from the data
// without differential privacy.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/core/result.h"
#include "engine/model/description.h"

namespace deniable {

bool IsDataSynthesizerDescription(const nlohmann::json& json);

Result<Description> ImportDataSynthesizerDescription(const nlohmann::json& json,
                                                     const std::string& source);

}  // namespace deniable
