// SPDX-License-Identifier: Apache-2.0
#include "engine/schema/schema.h"

#include <array>
#include <cctype>

namespace deniable {
namespace {

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

constexpr std::array<DataType, 4> kDataTypes = {DataType::kInteger, DataType::kFloat,
                                                DataType::kDateTime, DataType::kString};
constexpr std::array<ColumnRole, 6> kColumnRoles = {
    ColumnRole::kAttribute, ColumnRole::kIdentifier, ColumnRole::kQuasiIdentifier,
    ColumnRole::kSensitive, ColumnRole::kIgnore,     ColumnRole::kTarget};
constexpr std::array<LetterCase, 4> kLetterCases = {LetterCase::kAsListed, LetterCase::kUpper,
                                                    LetterCase::kLower, LetterCase::kCapitalized};

}  // namespace

const char* DataTypeName(DataType type) {
  switch (type) {
    case DataType::kInteger: return "Integer";
    case DataType::kFloat: return "Float";
    case DataType::kDateTime: return "DateTime";
    case DataType::kString: return "String";
  }
  return "String";
}

const char* ColumnRoleName(ColumnRole role) {
  switch (role) {
    case ColumnRole::kAttribute: return "attribute";
    case ColumnRole::kIdentifier: return "identifier";
    case ColumnRole::kQuasiIdentifier: return "quasi-identifier";
    case ColumnRole::kSensitive: return "sensitive";
    case ColumnRole::kIgnore: return "ignore";
    case ColumnRole::kTarget: return "target";
  }
  return "attribute";
}

const char* LetterCaseName(LetterCase letter_case) {
  switch (letter_case) {
    case LetterCase::kAsListed: return "as-listed";
    case LetterCase::kUpper: return "upper";
    case LetterCase::kLower: return "lower";
    case LetterCase::kCapitalized: return "capitalized";
  }
  return "as-listed";
}

std::optional<LetterCase> ParseLetterCase(std::string_view name) {
  for (LetterCase letter_case : kLetterCases) {
    if (EqualsIgnoreCase(name, LetterCaseName(letter_case))) return letter_case;
  }
  return std::nullopt;
}

std::optional<DataType> ParseDataType(std::string_view name) {
  for (DataType type : kDataTypes) {
    if (EqualsIgnoreCase(name, DataTypeName(type))) return type;
  }
  return std::nullopt;
}

std::optional<ColumnRole> ParseColumnRole(std::string_view name) {
  for (ColumnRole role : kColumnRoles) {
    if (EqualsIgnoreCase(name, ColumnRoleName(role))) return role;
  }
  // Accepted spellings of the quasi-identifier role besides the canonical one.
  if (EqualsIgnoreCase(name, "quasi_identifier") || EqualsIgnoreCase(name, "quasiidentifier")) {
    return ColumnRole::kQuasiIdentifier;
  }
  return std::nullopt;
}

}  // namespace deniable
