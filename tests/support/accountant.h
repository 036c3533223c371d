// SPDX-License-Identifier: Apache-2.0
// Privacy accountants for tests: a generous pure-ε budget and the ledger's total ε.
#pragma once

#include "engine/dp/privacy_accountant.h"

namespace deniable::test_support {

inline PrivacyAccountant Accountant(double epsilon = 100.0) {
  return PrivacyAccountant::Create({epsilon, 0.0}).value();
}

inline double LedgerTotal(const PrivacyAccountant& accountant) {
  double total = 0;
  for (const LedgerEntry& e : accountant.entries()) total += e.cost.epsilon;
  return total;
}

}  // namespace deniable::test_support
