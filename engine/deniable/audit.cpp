// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/audit.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>

#include "engine/core/atomic_file.h"
#include "engine/deniable/candidate_generator.h"
#include "engine/deniable/plausibility.h"

namespace deniable {
namespace {

constexpr const char* kReadme =
    "Plausibly deniable synthesis: audit directory for the DATA OWNER ONLY.\n"
    "Do NOT publish or share it: seed_rows.txt says which input rows were seeds (D_S),\n"
    "origins.csv which seed produced which released record, and model.json holds the whole\n"
    "generative model. It holds no raw value of any row.\n\n"
    "model.json          sigma (attribute order), parents, bucket maps, conditional tables,\n"
    "                    cardinalities, the omega range, and the test: k, gamma, epsilon0,\n"
    "                    deterministic, fail_floor, attempts_cap\n"
    "seed_rows.txt       0-based data-row indices of D_S in the input (header excluded)\n"
    "released_codes.csv  the released records as domain codes, one column per attribute\n"
    "origins.csv         per released record: its seed's data row, omega and the k' tested\n\n"
    "Recount with CheckDeniableAudit() (engine/deniable/audit.h): for every released record\n"
    "it rebuilds D_S from the input and recounts k' for the record's own seed and omega.\n";

constexpr std::filesystem::perms kOwnerOnlyDirectory = std::filesystem::perms::owner_all;
constexpr mode_t kOwnerOnlyFile = 0600;

std::string AttributeName(int a, const std::vector<std::string>* names) {
  if (names != nullptr && static_cast<std::size_t>(a) < names->size()) {
    return (*names)[static_cast<std::size_t>(a)];
  }
  return "attribute_" + std::to_string(a);
}

// "file:line: message"
Error ParseErrorAt(const std::string& file, std::size_t line, const std::string& message) {
  return ParseError(file + ":" + std::to_string(line) + ": " + message);
}

Result<std::uint64_t> ParseUnsigned(std::string_view text, const std::string& file,
                                    std::size_t line) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return ParseErrorAt(file, line,
                        "expected a non-negative integer, got '" + std::string(text) + "'");
  }
  return value;
}

// Splits `text` into lines (without the final empty one).
std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// `count` comma-separated non-negative integers.
Result<std::vector<std::uint64_t>> ParseFields(std::string_view line, std::size_t count,
                                               const std::string& file, std::size_t line_number) {
  std::vector<std::uint64_t> values;
  for (std::size_t a = 0; a < count; ++a) {
    const std::size_t comma = line.find(',');
    if ((a + 1 < count) == (comma == std::string_view::npos)) {
      return ParseErrorAt(file, line_number, "expected " + std::to_string(count) + " values");
    }
    auto value = ParseUnsigned(line.substr(0, comma), file, line_number);
    if (!value) return value.error();
    values.push_back(*value);
    line.remove_prefix(comma == std::string_view::npos ? line.size() : comma + 1);
  }
  return values;
}

std::string Format(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", x);
  return buffer;
}

Result<DeniableModel> ModelFromJson(const nlohmann::json& j, const std::string& file) {
  try {
    DeniableModel model;
    model.cardinalities = j.at("cardinalities").get<std::vector<std::uint32_t>>();
    model.omega.min = j.at("omega").at("min").get<int>();
    model.omega.max = j.at("omega").at("max").get<int>();
    for (const nlohmann::json& n : j.at("nodes")) {
      BayesNode node;
      node.attribute = n.at("attribute").get<int>();
      node.cardinality = n.at("cardinality").get<std::uint32_t>();
      node.parents = n.at("parents").get<std::vector<int>>();
      node.parent_buckets = n.at("parent_buckets").get<std::vector<std::vector<std::uint32_t>>>();
      node.parent_bucket_counts = n.at("parent_bucket_counts").get<std::vector<std::uint32_t>>();
      node.probabilities = n.at("probabilities").get<std::vector<double>>();
      model.network.nodes.push_back(std::move(node));
    }
    return model;
  } catch (const nlohmann::json::exception& e) {
    return ParseError(file + ": " + e.what());
  }
}

}  // namespace

Status WriteDeniableAudit(const std::string& directory, const DeniableModel& model,
                          const DataSplit& split, const EncodedTable& released,
                          const ReleaseOrigins& origins, const DeniableOptions& options,
                          const std::vector<std::string>* names) {
  if (origins.records.size() != released.rows) {
    return InvalidArgument("the audit needs one origin per released record (" +
                           std::to_string(origins.records.size()) + " origins for " +
                           std::to_string(released.rows) + " records)");
  }
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (!error) {
    std::filesystem::permissions(directory, kOwnerOnlyDirectory,
                                 std::filesystem::perm_options::replace, error);
  }
  if (error || !std::filesystem::is_directory(directory)) {
    return IoError("cannot create the owner-only audit directory " + directory +
                   (error ? ": " + error.message() : std::string()));
  }
  const std::filesystem::path dir(directory);
  const auto write = [&](const char* file, std::string_view contents) {
    return WriteFileAtomically((dir / file).string(), contents, kOwnerOnlyFile);
  };
  if (Status s = write("README.txt", kReadme); !s) return s;

  nlohmann::json j;
  j["format"] = "deniable-audit-2";
  j["cardinalities"] = model.cardinalities;
  j["omega"] = {{"min", model.omega.min}, {"max", model.omega.max}};
  j["test"] = {{"k", options.k},
               {"gamma", options.gamma},
               {"epsilon0", options.epsilon0},
               {"deterministic", options.deterministic_test},
               {"fail_floor", origins.fail_floor},
               {"attempts_cap", origins.attempts_cap}};
  nlohmann::json sigma = nlohmann::json::array();
  nlohmann::json nodes = nlohmann::json::array();
  for (const BayesNode& node : model.network.nodes) {
    sigma.push_back(AttributeName(node.attribute, names));
    nodes.push_back({{"attribute", node.attribute},
                     {"name", AttributeName(node.attribute, names)},
                     {"cardinality", node.cardinality},
                     {"parents", node.parents},
                     {"parent_buckets", node.parent_buckets},
                     {"parent_bucket_counts", node.parent_bucket_counts},
                     {"probabilities", node.probabilities}});
  }
  j["sigma"] = sigma;
  j["nodes"] = nodes;
  if (Status s = write("model.json", j.dump(1)); !s) return s;

  std::string rows = "# 0-based data-row indices of D_S in the input (header excluded)\n";
  for (std::uint32_t r : split.seed_rows) rows += std::to_string(r) + "\n";
  if (Status s = write("seed_rows.txt", rows); !s) return s;

  std::string codes;
  for (std::size_t a = 0; a < released.num_attributes(); ++a) {
    codes += (a ? "," : "") + AttributeName(static_cast<int>(a), names);
  }
  codes += "\n";
  for (std::size_t r = 0; r < released.rows; ++r) {
    for (std::size_t a = 0; a < released.num_attributes(); ++a) {
      if (a) codes += ',';
      codes += std::to_string(released.columns[a][r]);
    }
    codes += '\n';
  }
  if (Status s = write("released_codes.csv", codes); !s) return s;

  std::string lines = "record,seed_row,omega,k_prime\n";
  for (std::size_t r = 0; r < origins.records.size(); ++r) {
    const RecordOrigin& o = origins.records[r];
    lines += std::to_string(r) + "," + std::to_string(o.seed_row) + "," +
             std::to_string(o.omega) + "," + std::to_string(o.k_prime) + "\n";
  }
  return write("origins.csv", lines);
}

Result<AuditCheck> CheckDeniableAudit(const std::string& directory, const EncodedTable& data,
                                      Progress& progress) {
  const std::filesystem::path dir(directory);
  const std::string model_file = (dir / "model.json").string();
  auto model_text = ReadFileToString(model_file);
  if (!model_text) return model_text.error();
  nlohmann::json j = nlohmann::json::parse(*model_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return ParseError(model_file + ": not valid JSON");
  auto model = ModelFromJson(j, model_file);
  if (!model) return model.error();
  AuditCheck check;
  try {
    const nlohmann::json& test = j.at("test");
    check.k = test.at("k").get<int>();
    check.gamma = test.at("gamma").get<double>();
    check.epsilon0 = test.at("epsilon0").get<double>();
    check.deterministic = test.at("deterministic").get<bool>();
    check.attempts_cap = test.at("attempts_cap").get<std::uint64_t>();
  } catch (const nlohmann::json::exception& e) {
    return ParseError(model_file + ": " + e.what());
  }
  if (!check.deterministic && !(check.epsilon0 > 0)) {
    return ParseError(model_file + ": test.epsilon0 must be positive for the randomised test");
  }
  check.implausible_below =
      check.deterministic
          ? check.k
          : check.k + std::log(2 * kAuditFalseFailure /
                               static_cast<double>(std::max<std::uint64_t>(1, check.attempts_cap))) /
                          check.epsilon0;

  const std::string rows_file = (dir / "seed_rows.txt").string();
  auto rows_text = ReadFileToString(rows_file);
  if (!rows_text) return rows_text.error();
  DataSplit split;
  const std::vector<std::string_view> row_lines = Lines(*rows_text);
  for (std::size_t i = 0; i < row_lines.size(); ++i) {
    if (row_lines[i].empty() || row_lines[i][0] == '#') continue;
    auto row = ParseUnsigned(row_lines[i], rows_file, i + 1);
    if (!row) return row.error();
    if (*row >= data.rows) {
      return ParseErrorAt(rows_file, i + 1,
                          "row " + std::to_string(*row) + " is not in the input (" +
                              std::to_string(data.rows) + " rows)");
    }
    split.seed_rows.push_back(static_cast<std::uint32_t>(*row));
  }
  check.seeds = split.seed_rows.size();
  SubProgress index_progress(progress, 0.0, 0.2);
  auto seeds = PrepareSeeds(data, split.seed_rows, *model, model->omega.min, index_progress);
  if (!seeds) return seeds.error();
  std::unordered_map<std::uint32_t, std::size_t> sorted_position;  // data row -> index position
  for (std::size_t p = 0; p < seeds->index.size(); ++p) {
    sorted_position[split.seed_rows[seeds->index.SeedRow(p)]] = p;
  }

  const std::string codes_file = (dir / "released_codes.csv").string();
  auto codes_text = ReadFileToString(codes_file);
  if (!codes_text) return codes_text.error();
  const std::string origins_file = (dir / "origins.csv").string();
  auto origins_text = ReadFileToString(origins_file);
  if (!origins_text) return origins_text.error();
  const std::vector<std::string_view> lines = Lines(*codes_text);
  const std::vector<std::string_view> origin_lines = Lines(*origins_text);
  const std::size_t m = model->cardinalities.size();
  const int attributes = static_cast<int>(m);
  std::vector<Code> y(m);
  std::vector<double> q(static_cast<std::size_t>(model->omega.max) + 1);
  PlausibleSeedCounter counter(seeds->index, attributes, model->omega, check.gamma);
  for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
    if (i % 1024 == 0 && progress.IsCancelled()) return Cancelled("audit check cancelled");
    if (lines[i].empty()) continue;
    auto record = ParseFields(lines[i], m, codes_file, i + 1);
    if (!record) return record.error();
    for (std::size_t a = 0; a < m; ++a) {
      if ((*record)[a] >= model->cardinalities[a]) {
        return ParseErrorAt(codes_file, i + 1,
                            "code " + std::to_string((*record)[a]) +
                                " is outside the domain of column " + std::to_string(a + 1));
      }
    }
    const std::size_t r = check.k_prime.size();
    if (i >= origin_lines.size()) {
      return ParseErrorAt(origins_file, i + 1, "missing the origin of record " + std::to_string(r));
    }
    auto origin = ParseFields(origin_lines[i], 4, origins_file, i + 1);
    if (!origin) return origin.error();
    const auto [index, seed_row, omega, recorded] =
        std::array<std::uint64_t, 4>{(*origin)[0], (*origin)[1], (*origin)[2], (*origin)[3]};
    const auto position = sorted_position.find(static_cast<std::uint32_t>(seed_row));
    if (index != r || position == sorted_position.end() || seed_row > UINT32_MAX ||
        omega < static_cast<std::uint64_t>(model->omega.min) ||
        omega > static_cast<std::uint64_t>(model->omega.max)) {
      return ParseErrorAt(origins_file, i + 1,
                          "expected record " + std::to_string(r) +
                              ", a seed row of seed_rows.txt and omega in [" +
                              std::to_string(model->omega.min) + ", " +
                              std::to_string(model->omega.max) + "]");
    }
    for (int p = 0; p < attributes; ++p) {
      y[static_cast<std::size_t>(p)] =
          static_cast<Code>((*record)[static_cast<std::size_t>(seeds->model.AttributeAt(p))]);
    }
    // The seed made y only if they agree on the m - ω copied positions.
    const int copied = attributes - static_cast<int>(omega);
    const Code* seed_codes = seeds->index.SeedCodes(position->second);
    std::uint32_t k_prime = 0;
    if (std::equal(y.begin(), y.begin() + copied, seed_codes)) {
      SuffixProbabilities(seeds->model, y.data(), model->omega.max, q.data());
      k_prime = counter.Count(position->second, static_cast<int>(omega), y.data(), q.data()).k_prime;
    }
    if (k_prime == 0 || k_prime != recorded) ++check.mismatched;
    check.k_prime.push_back(k_prime);
    if (k_prime < static_cast<std::uint32_t>(check.k)) ++check.below_k;
    if (static_cast<double>(k_prime) < check.implausible_below) ++check.implausible;
  }
  progress.Report(1.0, "Checking the audit");
  return check;
}

std::string AuditCheck::ToText() const {
  std::string text = "Audit: " + std::to_string(k_prime.size()) +
                     " released records recounted against " + std::to_string(seeds) +
                     " seeds, each for the seed and omega that produced it (k = " +
                     std::to_string(k) + ", " +
                     (deterministic ? "deterministic test" : "randomised test") + ").\n";
  if (k_prime.empty()) return text;
  std::vector<std::uint32_t> sorted = k_prime;
  std::sort(sorted.begin(), sorted.end());
  text += "k' of the producing seed's partition per record: min " + std::to_string(sorted.front()) +
          ", median " + std::to_string(sorted[sorted.size() / 2]) + ", max " +
          std::to_string(sorted.back()) + "; " + std::to_string(below_k) + " below k.\n";
  if (mismatched > 0) {
    text += "FAILED: " + std::to_string(mismatched) +
            " records do not match their recorded origin (the seed cannot have produced the "
            "record, or the k' tested differs from the recount).\n";
  }
  if (deterministic) {
    text += implausible == 0 ? "Every record has k' >= k — consistent with the deterministic "
                               "test.\n"
                             : "FAILED: " + std::to_string(implausible) +
                                   " records have k' < k — INCONSISTENT with the deterministic "
                                   "test.\n";
  } else {
    const std::string bound = Format(implausible_below);
    text += implausible == 0
                ? "No record has k' < " + bound +
                      ", below which a pass within the cap of attempts has probability < 1e-6 — "
                      "consistent with the randomised test (records between that bound and k "
                      "are possible: its threshold is noisy).\n"
                : "FAILED: " + std::to_string(implausible) + " records have k' < " + bound +
                      ", which the randomised test passes with probability < 1e-6 over all " +
                      std::to_string(attempts_cap) + " attempts — INCONSISTENT with it.\n";
  }
  return text;
}

}  // namespace deniable
