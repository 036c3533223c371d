// SPDX-License-Identifier: Apache-2.0
// Delimiter detection (DetectDelimiter in csv_reader.h).
#include <array>
#include <cstddef>
#include <string_view>
#include <vector>

#include "engine/io/csv_reader.h"

namespace deniable {
namespace {

constexpr std::array<char, 4> kCandidates = {',', ';', '\t', '|'};
constexpr std::size_t kSampleBytes = 64 * 1024;
constexpr std::size_t kSampleRecords = 50;

using Counts = std::array<std::size_t, kCandidates.size()>;

// Per record of the sample (quote-aware, blank lines skipped): how often each candidate occurs
// outside quotes. A record cut off by the end of the sample is dropped unless it is the only one.
std::vector<Counts> CountCandidates(std::string_view text) {
  std::vector<Counts> records;
  Counts current{};
  bool in_quotes = false;
  bool record_has_text = false;
  const std::size_t limit = std::min(text.size(), kSampleBytes);
  for (std::size_t i = 0; i < limit && records.size() < kSampleRecords; ++i) {
    const char c = text[i];
    if (c == '"') {
      in_quotes = !in_quotes;
    } else if (!in_quotes && (c == '\n' || c == '\r')) {
      if (record_has_text) records.push_back(current);
      current = Counts{};
      record_has_text = false;
      continue;
    } else if (!in_quotes) {
      for (std::size_t k = 0; k < kCandidates.size(); ++k)
        current[k] += c == kCandidates[k] ? 1 : 0;
    }
    record_has_text = true;
  }
  const bool cut = limit < text.size() || in_quotes;
  if (record_has_text && (!cut || records.empty())) records.push_back(current);
  return records;
}

}  // namespace

char DetectDelimiter(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const std::vector<Counts> records = CountCandidates(text);
  if (records.empty()) return ',';
  // Prefer a candidate that splits every sampled record into the same number of fields (more
  // than one); among those, the one giving the most fields. Ties go to the earlier candidate.
  int best = -1;
  for (std::size_t k = 0; k < kCandidates.size(); ++k) {
    const std::size_t count = records.front()[k];
    if (count == 0) continue;
    bool consistent = true;
    for (const Counts& record : records) consistent = consistent && record[k] == count;
    if (consistent && (best < 0 || count > records.front()[static_cast<std::size_t>(best)])) {
      best = static_cast<int>(k);
    }
  }
  if (best >= 0) return kCandidates[static_cast<std::size_t>(best)];
  // Nothing consistent (a ragged file): go by the header alone.
  std::size_t best_count = 0;
  char delimiter = ',';
  for (std::size_t k = 0; k < kCandidates.size(); ++k) {
    if (records.front()[k] > best_count) {
      best_count = records.front()[k];
      delimiter = kCandidates[k];
    }
  }
  return delimiter;
}

}  // namespace deniable
