// SPDX-License-Identifier: Apache-2.0
#include "engine/core/result.h"

namespace deniable {

const char* ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid argument";
    case ErrorCode::kParse: return "bad input data";
    case ErrorCode::kFailedPrecondition: return "failed precondition";
    case ErrorCode::kBudgetExhausted: return "privacy budget exhausted";
    case ErrorCode::kIo: return "i/o error";
    case ErrorCode::kCancelled: return "cancelled";
    case ErrorCode::kInternal: return "internal error";
  }
  return "unknown error";
}

}  // namespace deniable
