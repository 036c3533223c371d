// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/candidate_generator.h"

#include <string>

namespace deniable {

Result<PreparedSeeds> PrepareSeeds(const EncodedTable& data,
                                   const std::vector<std::uint32_t>& seed_rows,
                                   const DeniableModel& model, int min_omega, Progress& progress) {
  auto seed_model = SeedModel::Create(model.network, model.cardinalities);
  if (!seed_model) return seed_model.error();
  if (data.cardinalities != model.cardinalities) {
    return InvalidArgument("the data's attributes do not match the model's cardinalities");
  }
  const int m = seed_model->attributes();
  if (min_omega < 0 || min_omega > m) {
    return InvalidArgument("omega must be in 0.." + std::to_string(m) + " (got " +
                           std::to_string(min_omega) + ")");
  }
  for (std::uint32_t row : seed_rows) {
    if (row >= data.rows) {
      return InvalidArgument("seed row " + std::to_string(row) + " is not in the data");
    }
  }
  const EncodedTable seeds = SelectRows(data, seed_rows);
  auto index = SeedIndex::Build(seeds, seed_model->order(), m - min_omega, progress);
  if (!index) return index.error();
  return PreparedSeeds{std::move(*seed_model), std::move(*index)};
}

CandidateGenerator::CandidateGenerator(const PreparedSeeds& seeds, OmegaRange omega, double gamma)
    : seeds_(seeds),
      omega_(omega),
      random_omega_(omega.width() > 1),
      counter_(seeds.index, seeds.model.attributes(), omega, gamma),
      y_(static_cast<std::size_t>(seeds.model.attributes())),
      q_(static_cast<std::size_t>(omega.max) + 1, 1.0) {}

}  // namespace deniable
