// SPDX-License-Identifier: Apache-2.0
#include "engine/io/csv_parser.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>

#include "engine/io/utf8_scan.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace deniable::internal {
namespace {

// Rows are numbered with uint32 codes elsewhere (RawColumn::first_row, kMissingCode).
constexpr std::uint32_t kMaxRows = 0xFFFFFFFEu;
// CsvCell::size is 32 bits.
constexpr std::size_t kMaxFieldBytes = 0xFFFFFFFFu;
// Rows whose fields feed the quote_all_strings detection.
constexpr std::uint32_t kDialectRows = 1000;
// Cells per batch handed to the column builders (16 bytes each: the batch stays in L2).
constexpr std::size_t kBatchCells = 1 << 14;
// Text is validated this far ahead of the tokenizer, so it is still in cache when parsed.
constexpr std::size_t kValidateAhead = 1 << 18;

// First byte at or after `p` that is the delimiter, a quote, LF or CR. The '\n' sentinel after
// the text guarantees one.
inline const char* FindFieldEnd(const char* p, char delimiter) {
#if defined(__SSE2__)
  const __m128i d = _mm_set1_epi8(delimiter);
  const __m128i q = _mm_set1_epi8('"');
  const __m128i lf = _mm_set1_epi8('\n');
  const __m128i cr = _mm_set1_epi8('\r');
  while (true) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i hits = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, d), _mm_cmpeq_epi8(x, q)),
                                      _mm_or_si128(_mm_cmpeq_epi8(x, lf), _mm_cmpeq_epi8(x, cr)));
    const int mask = _mm_movemask_epi8(hits);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#else
  while (*p != delimiter && *p != '"' && *p != '\n' && *p != '\r') ++p;
  return p;
#endif
}

// First quote or LF at or after `p`.
inline const char* FindQuoteOrLf(const char* p) {
#if defined(__SSE2__)
  const __m128i q = _mm_set1_epi8('"');
  const __m128i lf = _mm_set1_epi8('\n');
  while (true) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const int mask = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, q), _mm_cmpeq_epi8(x, lf)));
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#else
  while (*p != '"' && *p != '\n') ++p;
  return p;
#endif
}

constexpr const char* kBareCr =
    "carriage return without a line feed (classic Mac line ends are not supported; convert the "
    "file to LF or CRLF line ends)";

std::string Quoted(const std::string& name) { return "'" + name + "'"; }

}  // namespace

CsvChunkParser::CsvChunkParser(std::string_view text, std::size_t data_start, std::size_t begin,
                               std::uint64_t first_line, char delimiter,
                               const MissingTokens& missing)
    : base_(text.data()),
      size_(text.size()),
      data_start_(data_start),
      delimiter_(delimiter),
      missing_(missing),
      pos_(begin),
      line_(first_line),
      record_start_(begin),
      record_line_(first_line),
      validated_(begin) {}

void CsvChunkParser::SetColumns(const std::vector<std::string>& names) {
  names_ = names;
  columns_.clear();
  columns_.reserve(names.size());
  for (const std::string& name : names) columns_.emplace_back(name);
  multi_column_ = names.size() > 1;
  // Batches of up to kMaxBatch rows and about kBatchCells cells: wide files use fewer rows.
  batch_capacity_ = static_cast<std::uint32_t>(std::clamp<std::size_t>(
      kBatchCells / std::max<std::size_t>(names.size(), 1), 1, ColumnBuilder::kMaxBatch));
  cells_.assign(names.size() * batch_capacity_, CsvCell{});
  batch_rows_ = 0;
}

void CsvChunkParser::Reserve(std::size_t rows) {
  for (ColumnBuilder& column : columns_) column.Reserve(rows);
  row_lines_.reserve(rows);
}

bool CsvChunkParser::SkipBlankLine() {
  if (pos_ >= size_) return false;  // the sentinel past the end is not a line
  if (base_[pos_] == '\n') {
    ++pos_;
  } else if (base_[pos_] == '\r' && pos_ + 1 < size_ && base_[pos_ + 1] == '\n') {
    pos_ += 2;
  } else {
    return false;
  }
  ++line_;
  return true;
}

// ---- Fields ---------------------------------------------------------------------------------

inline CsvChunkParser::FieldEnd CsvChunkParser::NextField(Field& field) {
  const char* start = base_ + pos_;
  if (*start == '"' && pos_ < size_) return QuotedField(field);
  const char* end = FindFieldEnd(start, delimiter_);
  const auto end_offset = static_cast<std::size_t>(end - base_);
  field = Field{pos_, static_cast<std::size_t>(end - start), false, false};
  if (end_offset >= size_) {
    field.size = size_ - pos_;
    pos_ = term_ = size_;
    return FieldEnd::kRecordEnd;
  }
  const char c = *end;
  if (c == delimiter_) {
    pos_ = end_offset + 1;
    return FieldEnd::kDelimiter;
  }
  if (c == '\n') {
    term_ = end_offset;
    pos_ = end_offset + 1;
    ++line_;
    return FieldEnd::kRecordEnd;
  }
  if (c == '\r') {
    if (end_offset + 1 < size_ && end[1] == '\n') {
      term_ = end_offset;
      pos_ = end_offset + 2;
      ++line_;
      return FieldEnd::kRecordEnd;
    }
    return FailField(end_offset, kBareCr);
  }
  return FailField(end_offset,
                   "quote inside an unquoted field (quote the whole field and double the quotes "
                   "inside it)");
}

CsvChunkParser::FieldEnd CsvChunkParser::QuotedField(Field& field) {
  const std::size_t open = pos_;
  const char* content = base_ + open + 1;
  const char* segment = content;  // start of the text not yet copied to arena_
  const char* p = content;
  bool escaped = false;
  std::size_t arena_start = 0;
  while (true) {
    const char* hit = FindQuoteOrLf(p);
    const auto hit_offset = static_cast<std::size_t>(hit - base_);
    if (hit_offset >= size_) {
      return FailField(open, "unterminated quoted field (the closing quote is missing)");
    }
    if (*hit == '\n') {
      ++line_;
      p = hit + 1;
      continue;
    }
    if (hit_offset + 1 < size_ && hit[1] == '"') {  // a doubled quote stands for one quote
      if (!escaped) arena_start = arena_.size();
      escaped = true;
      arena_.append(segment, static_cast<std::size_t>(hit + 1 - segment));
      p = segment = hit + 2;
      continue;
    }
    if (escaped) {
      arena_.append(segment, static_cast<std::size_t>(hit - segment));
      field = Field{arena_start, arena_.size() - arena_start, true, true};
      arena_.append(8, '\0');  // ColumnBuilder reads 8 bytes past the end
    } else {
      field = Field{open + 1, static_cast<std::size_t>(hit - content), true, false};
    }
    return AfterClosingQuote(hit_offset + 1);
  }
}

CsvChunkParser::FieldEnd CsvChunkParser::AfterClosingQuote(std::size_t after) {
  if (after >= size_) {
    pos_ = term_ = size_;
    return FieldEnd::kRecordEnd;
  }
  const char c = base_[after];
  if (c == delimiter_) {
    pos_ = after + 1;
    return FieldEnd::kDelimiter;
  }
  if (c == '\n' || (c == '\r' && after + 1 < size_ && base_[after + 1] == '\n')) {
    term_ = after;
    pos_ = after + (c == '\n' ? 1 : 2);
    ++line_;
    return FieldEnd::kRecordEnd;
  }
  if (c == '\r') return FailField(after, kBareCr);
  return FailField(after,
                   "text after the closing quote (a quote inside a quoted field must be doubled)");
}

// ---- Header ---------------------------------------------------------------------------------

bool CsvChunkParser::ParseHeader() {
  while (pos_ < size_ && SkipBlankLine()) {
  }
  if (pos_ >= size_) {
    failure_ = CsvFailure{1, 1, 0, "empty file: no header row"};
    return false;
  }
  record_start_ = pos_;
  record_line_ = line_;
  struct HeaderField {
    std::string name;
    std::size_t offset;
  };
  std::vector<HeaderField> fields;
  header_all_quoted_ = true;
  for (field_index_ = 0;; ++field_index_) {
    const std::size_t start = pos_;
    Field field;
    const FieldEnd end = NextField(field);
    if (end == FieldEnd::kError) return false;
    if (pos_ > validated_ && !EnsureValid(pos_)) return false;
    std::string_view name(Data(field), field.size);
    if (!field.quoted) {
      // Unquoted names are trimmed of spaces and tabs ("a, b" names "b"); quoted names are kept
      // exactly, so a deliberate leading space survives when quoted.
      const std::size_t first = name.find_first_not_of(" \t");
      name = first == std::string_view::npos
                 ? std::string_view()
                 : name.substr(first, name.find_last_not_of(" \t") - first + 1);
      header_all_quoted_ = false;
    }
    fields.push_back(HeaderField{std::string(name), start});
    if (end == FieldEnd::kRecordEnd) break;
  }
  header_crlf_ = term_ < size_ && base_[term_] == '\r';
  header_end_ = pos_;
  arena_.clear();
  std::unordered_map<std::string_view, std::size_t> seen;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    field_index_ = i;
    const std::string& name = fields[i].name;
    if (name.empty()) {
      return Fail(fields[i].offset,
                  "empty column name (every column needs a name; an R row-names column can be "
                  "dropped with write.csv(..., row.names = FALSE))");
    }
    const auto [it, inserted] = seen.emplace(name, i);
    if (!inserted) {
      return Fail(fields[i].offset, "duplicate column name " + Quoted(name) +
                                        ", already the name of field " +
                                        std::to_string(it->second + 1));
    }
  }
  std::vector<std::string> names;
  names.reserve(fields.size());
  for (HeaderField& field : fields) names.push_back(std::move(field.name));
  SetColumns(names);
  return true;
}

void CsvChunkParser::FailNoRows() {
  pos_ = header_end_;
  Fail(header_end_, "no data rows after the header", /*in_field=*/false);
}

// ---- Records --------------------------------------------------------------------------------

ParseStatus CsvChunkParser::ParseRecords(std::size_t stop, std::size_t max_rows,
                                         const ParseCheckpoint& checkpoint) {
  const std::size_t limit = max_rows == 0 ? static_cast<std::size_t>(-1) : max_rows;
  if (rows_ < kDialectRows) {
    const ParseStatus status =
        ParseLoop<true>(stop, std::min<std::size_t>(limit, kDialectRows), checkpoint);
    if (status != ParseStatus::kOk || rows_ < kDialectRows) return status;
  }
  return ParseLoop<false>(stop, limit, checkpoint);
}

template <bool kDetectDialect>
ParseStatus CsvChunkParser::ParseLoop(std::size_t stop, std::size_t row_limit,
                                      const ParseCheckpoint& checkpoint) {
  while (rows_ < row_limit && pos_ < stop && pos_ < size_) {
    if (multi_column_ && SkipBlankLine()) continue;  // blank lines between records
    if (rows_ % kCsvCheckEvery == 0 || pos_ >= next_check_) {
      next_check_ = pos_ + kCsvCheckBytes;
      if (!checkpoint(pos_)) return ParseStatus::kCancelled;
    }
    if (rows_ >= kMaxRows) {
      Fail(pos_, "too many data rows (at most " + std::to_string(kMaxRows) + " are supported)",
           false);
      return ParseStatus::kFailed;
    }
    if (!ParseRecord<kDetectDialect>()) return ParseStatus::kFailed;
  }
  FlushBatch();
  return ParseStatus::kOk;
}

void CsvChunkParser::FlushBatch() {
  if (batch_rows_ == 0) return;
  const std::uint32_t first_row = rows_ - batch_rows_;
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    columns_[c].AddCells(&cells_[c * batch_capacity_], batch_rows_, base_, arena_.data(), first_row,
                         missing_);
  }
  batch_rows_ = 0;
  arena_.clear();
}

template <bool kDetectDialect>
bool CsvChunkParser::ParseRecord() {
  record_start_ = pos_;
  record_line_ = line_;
  const std::size_t num_columns = columns_.size();
  for (std::size_t c = 0;; ++c) {
    field_index_ = c;
    Field field;
    const FieldEnd end = NextField(field);
    if (end == FieldEnd::kError) return false;
    if (pos_ > validated_ && !EnsureValid(pos_)) return false;
    if (field.size > kMaxFieldBytes) {
      return Fail(pos_, "field longer than 4 GiB (" + std::to_string(field.size) + " bytes)");
    }
    cells_[c * batch_capacity_ + batch_rows_] =
        CsvCell{field.offset, static_cast<std::uint32_t>(field.size), field.quoted, field.escaped};
    if constexpr (kDetectDialect) {
      if (!field.quoted && !missing_.ContainsPadded(Data(field), field.size) &&
          !IsNumericText(std::string_view(Data(field), field.size))) {
        saw_bare_text_ = true;
      }
    }
    if (end == FieldEnd::kRecordEnd) {
      if (c + 1 < num_columns) return FailRagged(c + 1);
      break;
    }
    if (c + 1 == num_columns) return FailTooManyFields();
  }
  row_lines_.push_back(record_line_);
  ++rows_;
  if (++batch_rows_ == batch_capacity_) FlushBatch();
  return true;
}

bool CsvChunkParser::Append(CsvChunkParser& next) {
  if (static_cast<std::uint64_t>(rows_) + next.rows_ > kMaxRows) {
    Fail(pos_, "too many data rows (at most " + std::to_string(kMaxRows) + " are supported)",
         false);
    return false;
  }
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    columns_[c].Append(std::move(next.columns_[c]), rows_);
  }
  const std::uint64_t line_offset = line_ - 1;  // next numbered its first line 1
  row_lines_.reserve(row_lines_.size() + next.row_lines_.size());
  for (const std::uint64_t line : next.row_lines_) row_lines_.push_back(line + line_offset);
  rows_ += next.rows_;
  pos_ = next.pos_;
  line_ = next.line_ + line_offset;
  term_ = next.term_;
  return true;
}

// ---- Errors ---------------------------------------------------------------------------------

bool CsvChunkParser::EnsureValid(std::size_t upto) {
  while (upto > validated_) {
    if (bad_found_) {
      Fail(bad_offset_, bad_problem_);  // the bad byte is in the field just parsed
      return false;
    }
    TextScan scan = ScanText(std::string_view(base_, size_), validated_,
                             std::max(upto, validated_ + kValidateAhead));
    validated_ = scan.end;
    if (scan.bad) {
      bad_found_ = true;
      bad_offset_ = scan.end;
      bad_problem_ = std::move(scan.problem);
    }
  }
  return true;
}

bool CsvChunkParser::FailRagged(std::size_t fields) {
  field_index_ = fields;
  return Fail(term_, "ragged row: " + std::to_string(fields) + " field" + (fields == 1 ? "" : "s") +
                         ", but the header has " + std::to_string(columns_.size()));
}

bool CsvChunkParser::FailTooManyFields() {
  const std::size_t extra_start = pos_;
  const std::size_t columns = columns_.size();
  // Count the fields of the whole row for the message (best effort).
  std::size_t fields = columns + 1;
  bool counted = true;
  while (true) {
    Field field;
    const FieldEnd end = NextField(field);
    if (end == FieldEnd::kError) {
      counted = false;
      break;
    }
    if (end == FieldEnd::kRecordEnd) break;
    ++fields;
  }
  field_index_ = columns;
  return Fail(extra_start, "ragged row: " +
                               (counted ? std::to_string(fields) + " fields"
                                        : "more than " + std::to_string(columns) + " fields") +
                               ", but the header has " + std::to_string(columns));
}

bool CsvChunkParser::Fail(std::size_t offset, std::string what, bool in_field) {
  if (offset > validated_ && !bad_found_) {
    TextScan scan = ScanText(std::string_view(base_, size_), validated_, offset);
    validated_ = scan.end;
    if (scan.bad) {
      bad_found_ = true;
      bad_offset_ = scan.end;
      bad_problem_ = std::move(scan.problem);
    }
  }
  if (bad_found_ && bad_offset_ < offset) {
    offset = bad_offset_;
    what = bad_problem_;
    in_field = true;
  }
  failure_ = CsvFailure{};
  Locate(offset, failure_.line, failure_.column);
  failure_.field = in_field ? field_index_ + 1 : 0;
  failure_.what = std::move(what);
  return false;
}

void CsvChunkParser::Locate(std::size_t offset, std::uint64_t& line, std::uint64_t& column) const {
  line = record_line_;
  for (const char* p = base_ + record_start_; p < base_ + offset;) {
    const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(base_ + offset - p));
    if (hit == nullptr) break;
    ++line;
    p = static_cast<const char*>(hit) + 1;
  }
  std::size_t line_begin = offset;
  while (line_begin > data_start_ && base_[line_begin - 1] != '\n') --line_begin;
  column = offset - line_begin + 1;
}

}  // namespace deniable::internal
