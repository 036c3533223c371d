// SPDX-License-Identifier: Apache-2.0
// Built-in public vocabularies: their lists, letter cases, the suggestions matched against a
// column, and the schema JSON declaration ("public": {"vocabulary": ...}) that expands to the
// list and is written back with its id.
#include "engine/schema/vocabularies.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "engine/schema/infer_schema.h"
#include "engine/schema/schema_json.h"
#include "tests/engine/schema/raw_table_builder.h"

namespace deniable {
namespace {

using test_support::Cells;
using test_support::MakeRawColumn;
using test_support::MakeRawTable;

const Vocabulary& Get(const std::string& id) {
  const Vocabulary* vocabulary = FindVocabulary(id);
  EXPECT_NE(vocabulary, nullptr) << id;
  static const Vocabulary kEmpty;
  return vocabulary != nullptr ? *vocabulary : kEmpty;
}

TEST(VocabulariesTest, ListsHaveTheirDocumentedSizes) {
  const std::map<std::string, std::size_t> expected = {
      {"us-states-usps", 51},          {"us-states-territories-usps", 56},
      {"us-states-names", 51},         {"us-states-territories-names", 56},
      {"countries-iso-alpha2", 249},   {"countries-iso-alpha3", 249},
      {"countries-iso-numeric", 249},  {"countries-iso-names", 249},
      {"currencies-iso4217", 182},     {"months-en", 12},
      {"months-en-abbr", 12},          {"weekdays-en", 7},
      {"weekdays-en-abbr", 7},         {"boolean-yes-no", 2},
      {"boolean-true-false", 2},       {"boolean-y-n", 2},
      {"boolean-t-f", 2},              {"boolean-0-1", 2},
      {"grades-us", 5},                {"grades-us-plus-minus", 13},
      {"grades-a-g", 7},               {"grades-a1-g5", 35},
      {"sex-f-m", 2},                  {"sex-female-male", 2}};
  std::set<std::string> ids;
  for (const Vocabulary& vocabulary : PublicVocabularies()) {
    EXPECT_TRUE(ids.insert(vocabulary.id).second) << "duplicate id " << vocabulary.id;
    EXPECT_FALSE(vocabulary.title.empty());
    ASSERT_TRUE(expected.count(vocabulary.id)) << "undocumented vocabulary " << vocabulary.id;
    EXPECT_EQ(vocabulary.entries.size(), expected.at(vocabulary.id)) << vocabulary.id;
    const std::set<std::string> unique(vocabulary.entries.begin(), vocabulary.entries.end());
    EXPECT_EQ(unique.size(), vocabulary.entries.size()) << "duplicate entry in " << vocabulary.id;
  }
  EXPECT_EQ(ids.size(), expected.size());
  EXPECT_EQ(FindVocabulary("US-STATES-USPS"), nullptr);  // ids are exact
}

TEST(VocabulariesTest, CountryListsAreAligned) {
  const Vocabulary& alpha2 = Get("countries-iso-alpha2");
  const Vocabulary& alpha3 = Get("countries-iso-alpha3");
  const Vocabulary& numeric = Get("countries-iso-numeric");
  const Vocabulary& names = Get("countries-iso-names");
  const auto row_of = [&alpha2](const std::string& code) {
    for (std::size_t i = 0; i < alpha2.entries.size(); ++i) {
      if (alpha2.entries[i] == code) return i;
    }
    return alpha2.entries.size();
  };
  const std::vector<std::vector<std::string>> spot = {
      {"US", "USA", "840", "United States"},
      {"GB", "GBR", "826", "United Kingdom"},
      {"CI", "CIV", "384", "Côte d'Ivoire"},
      {"AX", "ALA", "248", "Åland Islands"},
      {"KR", "KOR", "410", "Korea, Republic of"},
      {"TR", "TUR", "792", "Türkiye"},
      {"SS", "SSD", "728", "South Sudan"},
      {"AF", "AFG", "004", "Afghanistan"},
      {"ZW", "ZWE", "716", "Zimbabwe"}};
  for (const auto& row : spot) {
    const std::size_t i = row_of(row[0]);
    ASSERT_LT(i, alpha2.entries.size()) << row[0];
    EXPECT_EQ(alpha3.entries[i], row[1]);
    EXPECT_EQ(numeric.entries[i], row[2]);
    EXPECT_EQ(names.entries[i], row[3]);
  }
  for (std::size_t i = 0; i < alpha2.entries.size(); ++i) {
    EXPECT_EQ(alpha2.entries[i].size(), 2u);
    EXPECT_EQ(alpha3.entries[i].size(), 3u);
    EXPECT_EQ(numeric.entries[i].size(), 3u);
    if (i > 0) {
      EXPECT_LT(alpha2.entries[i - 1], alpha2.entries[i]);  // alpha-2 order
    }
  }
}

TEST(VocabulariesTest, StatesAndCurrenciesSpotChecks) {
  const Vocabulary& codes = Get("us-states-territories-usps");
  const Vocabulary& names = Get("us-states-territories-names");
  const std::set<std::string> territories(codes.entries.begin() + 51, codes.entries.end());
  EXPECT_EQ(territories, (std::set<std::string>{"AS", "GU", "MP", "PR", "VI"}));
  EXPECT_EQ(Get("us-states-usps").entries[8], "DC");
  EXPECT_EQ(names.entries[8], "District of Columbia");
  const std::vector<std::string>& currencies = Get("currencies-iso4217").entries;
  for (const char* code : {"USD", "EUR", "JPY", "CHF", "XAU", "XXX", "ZWG", "XCG", "VES"}) {
    EXPECT_NE(std::find(currencies.begin(), currencies.end(), code), currencies.end()) << code;
  }
  EXPECT_EQ(std::find(currencies.begin(), currencies.end(), "HRK"), currencies.end());  // 2023
  EXPECT_EQ(Get("grades-a1-g5").entries.front(), "A1");
  EXPECT_EQ(Get("grades-a1-g5").entries.back(), "G5");
  EXPECT_EQ(Get("months-en-abbr").entries[8], "Sep");
}

TEST(LetterCaseTest, UpperLowerAndCapitalizedKeepNonLetters) {
  EXPECT_EQ(ApplyLetterCase("Côte d'Ivoire", LetterCase::kUpper), "CÔTE D'IVOIRE");
  EXPECT_EQ(ApplyLetterCase("Åland Islands", LetterCase::kLower), "åland islands");
  EXPECT_EQ(ApplyLetterCase("yes", LetterCase::kCapitalized), "Yes");
  EXPECT_EQ(ApplyLetterCase("ÉCOLE", LetterCase::kCapitalized), "École");
  EXPECT_EQ(ApplyLetterCase("Straße ×2", LetterCase::kUpper), "STRAßE ×2");
  EXPECT_EQ(ApplyLetterCase("A+", LetterCase::kLower), "a+");
  EXPECT_EQ(ApplyLetterCase("", LetterCase::kCapitalized), "");
  EXPECT_EQ(ApplyLetterCase("Mixed Case", LetterCase::kAsListed), "Mixed Case");
}

ColumnSchema StringColumn(bool categorical = true) {
  ColumnSchema column;
  column.name = "x";
  column.type = DataType::kString;
  column.categorical = categorical;
  return column;
}

std::vector<std::string> MatchIds(const RawColumn& raw, const ColumnSchema& column) {
  std::vector<std::string> ids;
  for (const VocabularyMatch& match : MatchVocabularies(raw, column)) {
    ids.push_back(match.vocabulary->id + "/" + LetterCaseName(match.letter_case));
  }
  return ids;
}

TEST(MatchVocabulariesTest, StateCodesWithATypoAreSuggestedTightestFirst) {
  // 200 cells of 40 states, 1 cell "XX" (0.5%: within the 1% allowed).
  const std::vector<std::string>& states = Get("us-states-usps").entries;
  std::vector<std::string> cells =
      Cells(200, [&states](std::size_t i) { return states[i % 40]; });
  cells.push_back("XX");
  const RawColumn raw = MakeRawColumn("state", cells);
  const std::vector<VocabularyMatch> matches = MatchVocabularies(raw, StringColumn(false));
  ASSERT_GE(matches.size(), 2u);
  EXPECT_EQ(matches[0].vocabulary->id, "us-states-usps");  // smaller than with territories
  EXPECT_EQ(matches[1].vocabulary->id, "us-states-territories-usps");
  EXPECT_EQ(matches[0].matched_cells, 200u);
  EXPECT_EQ(matches[0].outside_cells, 1u);
  EXPECT_EQ(matches[0].observed_entries, 40u);
  ASSERT_EQ(matches[0].outside_values.size(), 1u);
  EXPECT_EQ(matches[0].outside_values[0].first, "XX");
  // Lower-case codes match the same vocabulary in lower case.
  const RawColumn lower = MakeRawColumn("state", {"ca", "ny", "tx", "ca"});
  EXPECT_EQ(MatchIds(lower, StringColumn()).front(), "us-states-usps/lower");
  // Three cells of a typo in 200 are beyond 1%: no suggestion.
  cells.insert(cells.end(), {"XX", "XX"});
  EXPECT_TRUE(MatchIds(MakeRawColumn("state", cells), StringColumn(false)).empty());
}

TEST(MatchVocabulariesTest, BooleansMonthsAndCases) {
  EXPECT_EQ(MatchIds(MakeRawColumn("b", {"Yes", "No", "Yes"}), StringColumn()),
            (std::vector<std::string>{"boolean-yes-no/capitalized"}));
  EXPECT_EQ(MatchIds(MakeRawColumn("b", {"TRUE", "FALSE"}), StringColumn()),
            (std::vector<std::string>{"boolean-true-false/upper"}));
  EXPECT_EQ(MatchIds(MakeRawColumn("m", {"Jan", "Feb", "Dec"}), StringColumn()),
            (std::vector<std::string>{"months-en-abbr/as-listed"}));  // capitalized = as listed
  EXPECT_EQ(MatchIds(MakeRawColumn("g", {"A+", "B-", "F"}), StringColumn()),
            (std::vector<std::string>{"grades-us-plus-minus/as-listed"}));
  // "A", "B", "F" are in three grade lists; the smallest comes first.
  EXPECT_EQ(MatchIds(MakeRawColumn("g", {"A", "B", "F"}), StringColumn()),
            (std::vector<std::string>{"grades-us/as-listed", "grades-a-g/as-listed",
                                      "grades-us-plus-minus/as-listed"}));
  EXPECT_TRUE(MatchIds(MakeRawColumn("b", {"Yes", "no"}), StringColumn()).empty());  // mixed
  EXPECT_TRUE(MatchIds(MakeRawColumn("b", {}), StringColumn()).empty());
}

TEST(MatchVocabulariesTest, IntegerColumnsMatchOnlyCanonicalIntegerLists) {
  const RawTable table = MakeRawTable(
      {{"flag", Cells(30, [](std::size_t i) { return std::to_string(i % 2); })},
       {"code", Cells(30, [](std::size_t i) { return i % 2 ? "191" : "192"; })},
       {"iso", Cells(30, [](std::size_t i) { return i % 2 ? "004" : "840"; })}});
  const Schema schema = InferSchema(table, {});
  ASSERT_EQ(schema.columns[0].type, DataType::kInteger);
  EXPECT_EQ(MatchIds(table.columns[0], schema.columns[0]),
            (std::vector<std::string>{"boolean-0-1/as-listed"}));
  // 191/192 are ISO numeric codes too, but an Integer column could not write "004" back.
  EXPECT_TRUE(MatchIds(table.columns[1], schema.columns[1]).empty());
  ASSERT_EQ(schema.columns[2].type, DataType::kString);  // leading zeros: a code column
  EXPECT_EQ(MatchIds(table.columns[2], schema.columns[2]),
            (std::vector<std::string>{"countries-iso-numeric/as-listed"}));
  ColumnSchema not_categorical = schema.columns[0];
  not_categorical.categorical = false;
  EXPECT_TRUE(MatchIds(table.columns[0], not_categorical).empty());
}

TEST(ValuesOutsideTest, CountsAndOrdersTheValuesOutsideAList) {
  const RawColumn raw = MakeRawColumn("x", {"a", "b", "z", "z", "y", "a", "", "w"});
  const OutsideValues outside = ValuesOutside(raw, StringColumn(), {"a", "b"}, 2);
  EXPECT_EQ(outside.cells, 4u);
  EXPECT_EQ(outside.distinct, 3u);
  ASSERT_EQ(outside.values.size(), 2u);
  EXPECT_EQ(outside.values[0], (std::pair<std::string, std::uint64_t>{"z", 2}));
  EXPECT_EQ(outside.values[1], (std::pair<std::string, std::uint64_t>{"w", 1}));  // ties by text
  // Numeric columns compare values, the way domains match them.
  ColumnSchema integer;
  integer.type = DataType::kInteger;
  integer.categorical = true;
  const OutsideValues numbers = ValuesOutside(MakeRawColumn("n", {"1", "01", "2", "x"}), integer,
                                              {"1"});
  EXPECT_EQ(numbers.distinct, 1u);  // "2"; "x" does not parse (a failed value)
  EXPECT_EQ(numbers.values[0].first, "2");
}

class VocabularyJsonTest : public ::testing::Test {
 protected:
  RawTable table_ = MakeRawTable(
      {{"state", Cells(40, [](std::size_t i) { return i % 3 ? "CA" : "NY"; })},
       {"answer", Cells(40, [](std::size_t i) { return i % 2 ? "YES" : "NO"; })},
       {"count", Cells(40, [](std::size_t i) { return std::to_string(i % 2); })}});
  Schema base_ = InferSchema(table_, {});

  Result<Schema> Apply(const char* text, const Schema* base = nullptr) {
    return ApplySchemaJson(base ? *base : base_, nlohmann::json::parse(text), "s.json", &table_);
  }
};

TEST_F(VocabularyJsonTest, ADeclarationExpandsToTheListAndIsWrittenBackWithItsId) {
  auto schema = Apply(R"({"columns": [
      {"name": "state", "public": {"vocabulary": "us-states-usps"}},
      {"name": "answer", "public": {"vocabulary": "boolean-yes-no", "case": "upper"}}]})");
  ASSERT_TRUE(schema.has_value()) << schema.error().message;
  const ColumnSchema& state = schema->columns[0];
  ASSERT_TRUE(state.public_categories.has_value());
  EXPECT_EQ(*state.public_categories, Get("us-states-usps").entries);
  EXPECT_EQ(state.public_vocabulary, "us-states-usps");
  const ColumnSchema& answer = schema->columns[1];
  EXPECT_EQ(*answer.public_categories, (std::vector<std::string>{"YES", "NO"}));
  EXPECT_EQ(answer.public_vocabulary_case, LetterCase::kUpper);
  const nlohmann::json json = SchemaToJson(*schema, false);
  EXPECT_EQ(json["columns"][0]["public"]["vocabulary"], "us-states-usps");
  EXPECT_FALSE(json["columns"][0]["public"].contains("case"));
  EXPECT_EQ(json["columns"][0]["public"]["categories"].size(), 51u);
  EXPECT_EQ(json["columns"][1]["public"]["case"], "upper");
  // The written JSON (id and list) reads back to the same schema.
  auto again = ApplySchemaJson(base_, json, "s.json", &table_);
  ASSERT_TRUE(again.has_value()) << again.error().message;
  EXPECT_EQ(SchemaToJson(*again, false), json);
  // So does the text a person reads (documented key order).
  auto from_text = ParseJsonText(SchemaJsonText(*schema, false), "t.json");
  ASSERT_TRUE(from_text.has_value());
  auto third = ApplySchemaJson(base_, *from_text, "t.json", &table_);
  ASSERT_TRUE(third.has_value()) << third.error().message;
  EXPECT_EQ(SchemaToJson(*third, false), json);
}

TEST_F(VocabularyJsonTest, HandListsAndNullsClearTheDeclaration) {
  auto declared = Apply(R"({"columns": [{"name": "state", "public": {"vocabulary": "us-states-usps"}}]})");
  ASSERT_TRUE(declared.has_value());
  auto by_hand = Apply(R"({"columns": [{"name": "state", "public": {"categories": ["CA", "NY"]}}]})",
                       &declared.value());
  ASSERT_TRUE(by_hand.has_value()) << by_hand.error().message;
  EXPECT_EQ(by_hand->columns[0].public_vocabulary, "");
  EXPECT_EQ(by_hand->columns[0].public_categories->size(), 2u);
  auto unlinked = Apply(R"({"columns": [{"name": "state", "public": {"vocabulary": null}}]})",
                        &declared.value());
  ASSERT_TRUE(unlinked.has_value()) << unlinked.error().message;
  EXPECT_EQ(unlinked->columns[0].public_vocabulary, "");
  EXPECT_EQ(unlinked->columns[0].public_categories->size(), 51u);  // the list stays
  auto cleared = Apply(R"({"columns": [{"name": "state", "public": null}]})", &declared.value());
  ASSERT_TRUE(cleared.has_value());
  EXPECT_FALSE(cleared->columns[0].public_categories.has_value());
  EXPECT_EQ(cleared->columns[0].public_vocabulary, "");
  // The same list as the vocabulary's, in another order, keeps the id.
  auto same = Apply(R"({"columns": [{"name": "answer", "public": {"vocabulary": "boolean-yes-no",
                        "case": "upper", "categories": ["NO", "YES"]}}]})");
  ASSERT_TRUE(same.has_value()) << same.error().message;
  EXPECT_EQ(same->columns[1].public_vocabulary, "boolean-yes-no");
}

TEST_F(VocabularyJsonTest, Errors) {
  const auto error = [this](const char* text) {
    auto result = Apply(text);
    return result.has_value() ? std::string("(accepted)") : result.error().message;
  };
  EXPECT_EQ(error(R"({"columns": [{"name": "state", "public": {"vocabulary": "us-states"}}]})")
                .find("s.json: columns[0].public.vocabulary: unknown vocabulary 'us-states' "
                      "(known: us-states-usps, us-states-territories-usps, "),
            0u);
  EXPECT_EQ(error(R"({"columns": [{"name": "state", "public": {"case": "upper"}}]})"),
            "s.json: columns[0].public.case: only together with \"vocabulary\"");
  EXPECT_EQ(error(R"({"columns": [{"name": "answer", "public": {"vocabulary": "boolean-yes-no",
                      "case": "shouting"}}]})"),
            "s.json: columns[0].public.case: unknown case 'shouting' (expected as-listed, upper, "
            "lower or capitalized)");
  EXPECT_EQ(error(R"({"columns": [{"name": "answer", "public": {"vocabulary": "boolean-yes-no",
                      "categories": ["YES", "NO"]}}]})"),
            "s.json: columns[0].public.categories: differs from vocabulary 'boolean-yes-no' (2 "
            "entries); give one of \"vocabulary\" and \"categories\", or the vocabulary's exact "
            "list");
  EXPECT_EQ(error(R"({"columns": [{"name": "state", "categorical": false,
                      "public": {"vocabulary": "us-states-usps"}}]})"),
            "s.json: columns[0].public.vocabulary: a vocabulary declares public categories, "
            "which need a categorical column (set \"categorical\": true for column 'state')");
  EXPECT_EQ(error(R"({"columns": [{"name": "count", "public": {"vocabulary": "boolean-yes-no"}}]})"),
            "s.json: columns[0].public.vocabulary: vocabulary 'boolean-yes-no' holds 'yes', which "
            "is not a valid Integer (column 'count')");
  EXPECT_EQ(error(R"({"columns": [{"name": "count", "public": {"vocabulary": "boolean-0-1"}}]})"),
            "(accepted)");
}

}  // namespace
}  // namespace deniable
