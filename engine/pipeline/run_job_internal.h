// SPDX-License-Identifier: Apache-2.0
// Internal to the pipeline (run_job.cpp, model_settings.cpp): how numbers read in messages and
// summaries. Not API.
#pragma once

#include <sstream>
#include <string>

namespace deniable::internal {

// At most 4 significant digits ("0.3333", "1e-09"): for messages, ledger labels and summaries.
inline std::string Number(double value) {
  std::ostringstream out;
  out.precision(4);
  out << value;
  return out.str();
}

}  // namespace deniable::internal
