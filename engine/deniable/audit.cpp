// SPDX-License-Identifier: Apache-2.0
#include "engine/deniable/audit.h"

#include <algorithm>
#include <charconv>
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
    "Do NOT publish or share it: seed_rows.txt says which input rows were seeds (D_S), and\n"
    "model.json holds the whole generative model. It holds no raw value of any row, and which\n"
    "seed produced which released record is not recorded anywhere.\n\n"
    "model.json          sigma (attribute order), parents, bucket maps, quantised tables,\n"
    "                    cardinalities, the omega range, k, gamma, epsilon0, test type\n"
    "seed_rows.txt       0-based data-row indices of D_S in the input (header excluded)\n"
    "released_codes.csv  the released records as domain codes, one column per attribute\n\n"
    "Recount with CheckDeniableAudit() (engine/deniable/audit.h): for every released record\n"
    "it rebuilds D_S from the input and counts its plausible seeds group by group.\n";

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
                          const DeniableOptions& options, const std::vector<std::string>* names) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory)) {
    return IoError("cannot create the audit directory " + directory +
                   (error ? ": " + error.message() : std::string()));
  }
  const std::filesystem::path dir(directory);
  if (Status s = WriteFileAtomically((dir / "README.txt").string(), kReadme); !s) return s;

  nlohmann::json j;
  j["format"] = "deniable-audit-1";
  j["cardinalities"] = model.cardinalities;
  j["omega"] = {{"min", model.omega.min}, {"max", model.omega.max}};
  j["test"] = {{"k", options.k},
               {"gamma", options.gamma},
               {"epsilon0", options.epsilon0},
               {"deterministic", options.deterministic_test}};
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
  if (Status s = WriteFileAtomically((dir / "model.json").string(), j.dump(1)); !s) return s;

  std::string rows = "# 0-based data-row indices of D_S in the input (header excluded)\n";
  for (std::uint32_t r : split.seed_rows) rows += std::to_string(r) + "\n";
  if (Status s = WriteFileAtomically((dir / "seed_rows.txt").string(), rows); !s) return s;

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
  return WriteFileAtomically((dir / "released_codes.csv").string(), codes);
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
    check.k = j.at("test").at("k").get<int>();
    check.gamma = j.at("test").at("gamma").get<double>();
    check.deterministic = j.at("test").at("deterministic").get<bool>();
  } catch (const nlohmann::json::exception& e) {
    return ParseError(model_file + ": " + e.what());
  }

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

  const std::string codes_file = (dir / "released_codes.csv").string();
  auto codes_text = ReadFileToString(codes_file);
  if (!codes_text) return codes_text.error();
  const std::vector<std::string_view> lines = Lines(*codes_text);
  const std::size_t m = model->cardinalities.size();
  std::vector<Code> record(m), y(m);
  std::vector<double> q(static_cast<std::size_t>(model->omega.max) + 1);
  for (std::size_t i = 1; i < lines.size(); ++i) {  // line 1 is the header
    if (i % 1024 == 0 && progress.IsCancelled()) return Cancelled("audit check cancelled");
    std::string_view line = lines[i];
    if (line.empty()) continue;
    for (std::size_t a = 0; a < m; ++a) {
      const std::size_t comma = line.find(',');
      if ((a + 1 < m) == (comma == std::string_view::npos)) {
        return ParseErrorAt(codes_file, i + 1, "expected " + std::to_string(m) + " codes");
      }
      auto code = ParseUnsigned(line.substr(0, comma), codes_file, i + 1);
      if (!code) return code.error();
      if (*code >= model->cardinalities[a]) {
        return ParseErrorAt(codes_file, i + 1,
                            "code " + std::to_string(*code) + " is outside the domain of column " +
                                std::to_string(a + 1));
      }
      record[a] = static_cast<Code>(*code);
      line.remove_prefix(comma == std::string_view::npos ? line.size() : comma + 1);
    }
    for (int p = 0; p < seeds->model.attributes(); ++p) {
      y[static_cast<std::size_t>(p)] =
          record[static_cast<std::size_t>(seeds->model.AttributeAt(p))];
    }
    SuffixProbabilities(seeds->model, y.data(), model->omega.max, q.data());
    std::uint32_t largest = 0;
    for (const PlausibleGroup& g : PlausibleGroups(seeds->index, static_cast<int>(m), model->omega,
                                                   check.gamma, y.data(), q.data())) {
      largest = std::max(largest, g.seeds);
    }
    check.largest_group.push_back(largest);
    if (largest < static_cast<std::uint32_t>(check.k)) ++check.below_k;
  }
  progress.Report(1.0, "Checking the audit");
  return check;
}

std::string AuditCheck::ToText() const {
  std::string text = "Audit: " + std::to_string(largest_group.size()) +
                     " released records recounted against " + std::to_string(seeds) +
                     " seeds (k = " + std::to_string(k) + ").\n";
  if (largest_group.empty()) return text;
  std::vector<std::uint32_t> sorted = largest_group;
  std::sort(sorted.begin(), sorted.end());
  text += "Largest group of plausible seeds per record: min " + std::to_string(sorted.front()) +
          ", median " + std::to_string(sorted[sorted.size() / 2]) + ", max " +
          std::to_string(sorted.back()) + ".\n";
  text += std::to_string(below_k) + " records have fewer than k plausible seeds in every group" +
          (deterministic ? (below_k == 0 ? " — consistent with the deterministic test.\n"
                                         : " — INCONSISTENT with the deterministic test.\n")
                         : " (possible with the randomised test's noisy threshold).\n");
  return text;
}

}  // namespace deniable
