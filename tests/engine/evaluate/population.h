// SPDX-License-Identifier: Apache-2.0
// A synthetic "population" for the evaluate tests: quasi-identifiers that make most rows unique
// (age 18–87, one of 100 zip codes, sex, one of 10 jobs: 140,000 combinations) and a sensitive
// attribute drawn independently of them (4 values), so that only a copy of a row tells its
// sensitive value. Drawn with a SeededRng: the tables are fixed.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/random.h"
#include "engine/core/table.h"
#include "tests/support/test_tables.h"

namespace deniable::test_support {

inline RawTable Population(std::size_t rows, std::uint64_t seed, const std::string& source) {
  SeededRng rng(seed);
  std::vector<std::optional<std::string>> age, zip, sex, job, disease;
  const char* diseases[] = {"flu", "asthma", "diabetes", "none"};
  for (std::size_t i = 0; i < rows; ++i) {
    age.push_back(std::to_string(18 + UniformBelow(rng, 70)));
    char code[8];
    std::snprintf(code, sizeof code, "Z%02d", static_cast<int>(UniformBelow(rng, 100)));
    zip.push_back(std::string(code));
    sex.push_back(UniformBelow(rng, 2) ? "F" : "M");
    job.push_back("job" + std::to_string(UniformBelow(rng, 10)));
    disease.push_back(std::string(diseases[UniformBelow(rng, 4)]));
  }
  return MakeTable({MakeColumn("age", age), MakeColumn("zip", zip), MakeColumn("sex", sex),
                    MakeColumn("job", job), MakeColumn("disease", disease)},
                   source);
}

}  // namespace deniable::test_support
