// SPDX-License-Identifier: Apache-2.0
// Fresh identifiers for identifier columns: unique, in the column's public format
// (ColumnSchema::id_pattern: '#' a digit, 'A' an upper-case letter, 'a' a lower-case letter,
// '\x' the literal x, any other character literal). Never derived from a real identifier.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/result.h"

namespace deniable {

// `count` distinct identifiers drawn uniformly without replacement from the pattern's space.
// When the pattern cannot hold `count` distinct values comfortably (fewer than 2·count), digits
// are appended to it until it can. An empty pattern means "ID-" followed by digits.
Result<std::vector<std::string>> GenerateUniqueIds(std::string_view pattern, std::size_t count,
                                                   Rng& rng);

}  // namespace deniable
