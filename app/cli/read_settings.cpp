// SPDX-License-Identifier: Apache-2.0
// The input and model settings from a command's options (ReadInputSettings, ReadModelSettings,
// SplitNames; declared in commands.h): shared by the commands' files.
#include <algorithm>
#include <sstream>
#include <string>

#include "app/cli/commands.h"
#include "engine/pipeline/synthesis_job.h"
#include "engine/schema/schema_json.h"

namespace deniable::cli {

std::vector<std::string> SplitNames(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) items.push_back(item);
  if (text.empty() || text.back() == ',') items.push_back("");
  return items;
}

Result<InputSettings> ReadInputSettings(const ParsedArgs& args, const std::string& path) {
  InputSettings input;
  input.path = path;
  if (auto d = args.get("--delimiter")) {
    if (*d == "tab" || *d == "\\t") {
      input.csv.delimiter = '\t';
    } else if (d->size() == 1 && (*d == "," || *d == ";" || *d == "|" || *d == "\t")) {
      input.csv.delimiter = (*d)[0];
    } else {
      return InvalidArgument("--delimiter must be one of , ; | tab (got '" + *d + "')");
    }
  }
  if (auto m = args.get("--missing")) {
    input.csv.missing_tokens.clear();
    std::stringstream stream(*m);
    std::string token;
    while (std::getline(stream, token, ',')) input.csv.missing_tokens.push_back(token);
    if (m->empty() || m->back() == ',') input.csv.missing_tokens.emplace_back();
  }
  auto threshold = args.GetInteger("--categorical-threshold", 20);
  if (!threshold) return threshold.error();
  if (threshold.value() < 1 || threshold.value() > 100000) {
    return InvalidArgument("--categorical-threshold must be between 1 and 100000 (got " +
                           std::to_string(threshold.value()) + ")");
  }
  input.categorical_threshold = static_cast<int>(threshold.value());
  if (auto schema_path = args.get("--schema")) {
    auto json = ReadJsonFile(*schema_path);
    if (!json) return json.error();
    input.schema = std::move(json.value());
    input.schema_source = *schema_path;
  }
  return input;
}


Result<ModelSettings> ReadModelSettings(const ParsedArgs& args) {
  ModelSettings settings;
  // Without --mode: the default mode (ModelSettings, marginals; docs/utility.md says why).
  const std::string mode = args.get("--mode").value_or(SynthesisModeName(settings.mode));
  auto parsed_mode = ParseSynthesisMode(mode);
  if (!parsed_mode) {
    return InvalidArgument("--mode must be random, independent, correlated, deniable or marginals (got '" +
                           mode + "')");
  }
  settings.mode = *parsed_mode;
  if (settings.mode == SynthesisMode::kDeniable) {
    DeniableOptions& d = settings.deniable;
    auto k = args.GetInteger("--k", d.k);
    if (!k) return k.error();
    if (k.value() < 1 || k.value() > 1'000'000) {
      return InvalidArgument("--k must be between 1 and 1,000,000 (got " + std::to_string(k.value()) + ")");
    }
    d.k = static_cast<int>(k.value());
    auto gamma = args.GetDouble("--gamma", d.gamma);
    if (!gamma) return gamma.error();
    d.gamma = gamma.value();
    auto epsilon0 = args.GetDouble("--epsilon0", d.epsilon0);
    if (!epsilon0) return epsilon0.error();
    d.epsilon0 = epsilon0.value();
    d.deterministic_test = args.has("--deterministic-test");
    if (auto omega = args.get("--omega")) {
      if (auto s = ParseOmegaSpec(*omega, d); !s) return s.error();
    }
    if (auto split = args.get("--split")) {
      if (auto s = ParseSplitSpec(*split, d); !s) return s.error();
    }
    auto maxcost = args.GetInteger("--maxcost", static_cast<long long>(d.maxcost));
    if (!maxcost) return maxcost.error();
    if (maxcost.value() < 1) {
      return InvalidArgument("--maxcost must be at least 1 (got " + std::to_string(maxcost.value()) + ")");
    }
    d.maxcost = static_cast<std::uint64_t>(maxcost.value());
    auto cap = args.GetInteger("--max-candidates", 0);
    if (!cap) return cap.error();
    if (cap.value() < 0) return InvalidArgument("--max-candidates must be >= 0");
    d.max_candidates = static_cast<std::uint64_t>(cap.value());
    if (auto structure = args.get("--structure")) {
      if (*structure == "cfs") {
        d.structure = DeniableStructure::kCfs;
      } else if (*structure == "privbayes") {
        d.structure = DeniableStructure::kPrivBayes;
      } else if (*structure == "marginals") {
        d.structure = DeniableStructure::kMarginals;
      } else {
        return InvalidArgument("--structure must be cfs, privbayes or marginals (got '" + *structure + "')");
      }
    }
  } else {
    for (const char* option : {"--k", "--gamma", "--omega", "--epsilon0", "--deterministic-test",
                               "--maxcost", "--split", "--max-candidates", "--structure",
                               "--audit-dir"}) {
      if (args.has(option)) {
        return InvalidArgument(std::string(option) + " applies to --mode deniable only");
      }
    }
  }
  if (settings.mode == SynthesisMode::kMarginals) {
    MarginalsSettings& m = settings.marginals;
    if (auto mechanism = args.get("--mechanism")) {
      auto parsed = ParseMarginalsMechanism(*mechanism);
      if (!parsed) return InvalidArgument("--mechanism must be aim or mst (got '" + *mechanism + "')");
      m.mechanism = *parsed;
    }
    auto rounds = args.GetInteger("--rounds", 0);
    if (!rounds) return rounds.error();
    m.rounds = static_cast<int>(std::clamp<long long>(rounds.value(), -1, 1000000));
    auto mb = args.GetDouble("--max-model-mb", 0);
    if (!mb) return mb.error();
    m.max_model_mb = mb.value();
    auto iterations = args.GetInteger("--iterations", 0);
    if (!iterations) return iterations.error();
    m.iterations = static_cast<int>(std::clamp<long long>(iterations.value(), -1, 10000000));
    m.target = args.get("--target").value_or("");
    if (m.mechanism == MarginalsMechanism::kMst) {
      for (const char* option : {"--rounds", "--max-model-mb", "--target"}) {
        if (args.has(option)) return InvalidArgument(std::string(option) + " applies to --mechanism aim only");
      }
    }
  } else {
    for (const char* option : {"--mechanism", "--rounds", "--max-model-mb", "--target", "--iterations"}) {
      if (args.has(option)) return InvalidArgument(std::string(option) + " applies to --mode marginals only");
    }
  }
  auto epsilon = args.GetDouble("--epsilon", 1.0);
  if (!epsilon) return epsilon.error();
  settings.epsilon = epsilon.value();
  auto delta = args.GetDouble("--delta", 1e-9);
  if (!delta) return delta.error();
  settings.delta = delta.value();
  auto degree = args.GetInteger("--degree", 2);
  if (!degree) return degree.error();
  settings.degree = static_cast<int>(std::clamp<long long>(degree.value(), -1, 1000));
  if (args.has("--bins") && args.get("--bins") != "auto") {
    auto bins = args.GetInteger("--bins", 20);
    if (!bins) return bins.error();
    settings.bins = static_cast<int>(std::clamp<long long>(bins.value(), -1, 100000));
    if (settings.bins == 0) return InvalidArgument("--bins must be between 1 and 1000, or auto (got 0)");
  }
  auto structure = args.GetDouble("--structure-fraction", 0.3);
  if (!structure) return structure.error();
  settings.structure_fraction = structure.value();
  if (args.has("--domain-fraction") && args.get("--domain-fraction") != "auto") {
    auto domain = args.GetDouble("--domain-fraction", 0);
    if (!domain) return domain.error();
    settings.domain_fraction = domain.value();
  }
  auto threads = args.GetInteger("--threads", 0);
  if (!threads) return threads.error();
  if (threads.value() < 0 || threads.value() > 1024) {
    return InvalidArgument("--threads must be between 0 and 1024 (got " +
                           std::to_string(threads.value()) + ")");
  }
  settings.threads = static_cast<unsigned>(threads.value());
  if (auto s = settings.Validate(); !s) return s.error();
  return settings;
}

}  // namespace deniable::cli
