// SPDX-License-Identifier: Apache-2.0
// Result<T>: the engine's error-or-value type (std::expected is C++23; we build as C++20).
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace deniable {

// What went wrong, coarsely: the CLI maps these to exit codes and the GUI to message styles.
enum class ErrorCode {
  kInvalidArgument,     // a parameter a user set is nonsense (CLI exit code 2)
  kParse,               // input data is malformed: CSV, schema JSON, description (exit code 3)
  kFailedPrecondition,  // the request cannot be met with this data (e.g. too few rows)
  kBudgetExhausted,     // the privacy accountant refused a spend
  kIo,                  // file system trouble (cannot open, cannot write, disk full)
  kCancelled,           // the user cancelled; nothing was written
  kInternal,            // a bug or an exception caught at a boundary
};

const char* ErrorCodeName(ErrorCode code);

// A user-facing error. `message` is a complete sentence fragment that names the offending
// value and, for input data, the file, line and column, e.g.
//   "adult.csv:17:4: unterminated quoted field".
struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;

  // Prefixes the message with context: Error{kParse, "bad"}.WithContext("schema.json")
  // gives "schema.json: bad".
  Error WithContext(const std::string& context) const {
    return Error{code, context + ": " + message};
  }
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & {
    assert(has_value() && "Result::value() on an error");
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(has_value() && "Result::value() on an error");
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(has_value() && "Result::value() on an error");
    return std::get<0>(std::move(state_));
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const {
    assert(!has_value() && "Result::error() on a value");
    return std::get<1>(state_);
  }

 private:
  std::variant<T, Error> state_;
};

// Result<void>.
using Status = Result<std::monostate>;
inline Status OkStatus() { return Status(std::monostate{}); }

inline Error InvalidArgument(std::string message) {
  return Error{ErrorCode::kInvalidArgument, std::move(message)};
}
inline Error ParseError(std::string message) {
  return Error{ErrorCode::kParse, std::move(message)};
}
inline Error FailedPrecondition(std::string message) {
  return Error{ErrorCode::kFailedPrecondition, std::move(message)};
}
inline Error IoError(std::string message) { return Error{ErrorCode::kIo, std::move(message)}; }
inline Error Cancelled(std::string message) {
  return Error{ErrorCode::kCancelled, std::move(message)};
}
inline Error InternalError(std::string message) {
  return Error{ErrorCode::kInternal, std::move(message)};
}

}  // namespace deniable
