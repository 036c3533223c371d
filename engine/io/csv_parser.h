// SPDX-License-Identifier: Apache-2.0
// Internal (not API): the RFC 4180 tokenizer and record loop behind ReadCsv/ParseCsv. One
// CsvChunkParser parses a run of records of an in-memory file into per-column ColumnBuilders;
// the reader runs one per thread on quote-aware chunks and merges them (csv_reader.cpp).
//
// Buffer contract: `text` is the whole file; at least kCsvPadding bytes past text.size() are
// readable and hold '\n' (a sentinel that stops every scan, so the hot loops test no bounds).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/io/column_builder.h"
#include "engine/io/csv_text.h"

namespace deniable::internal {

inline constexpr std::size_t kCsvPadding = 64;

// A located parse failure. `line` is relative to the parser's `first_line` (the reader fixes up
// the lines of later chunks). field == 0: the problem is not inside a field.
struct CsvFailure {
  std::uint64_t line = 0;
  std::uint64_t column = 0;
  std::size_t field = 0;
  std::string what;
};

enum class ParseStatus { kOk, kFailed, kCancelled };

// Called every kCsvCheckEvery rows, and at least every kCsvCheckBytes of text (wide files),
// with the byte offset reached; returns false to cancel.
using ParseCheckpoint = std::function<bool(std::size_t offset)>;
inline constexpr std::uint32_t kCsvCheckEvery = 1u << 16;
inline constexpr std::size_t kCsvCheckBytes = std::size_t{16} << 20;

class CsvChunkParser {
 public:
  // Parsing starts at `begin`, a line start numbered `first_line`. `data_start` is where the
  // file's text starts (after a BOM): column numbers on line 1 count from there.
  CsvChunkParser(std::string_view text, std::size_t data_start, std::size_t begin,
                 std::uint64_t first_line, char delimiter, const MissingTokens& missing);

  // Reads the header record (blank lines before it are skipped), checks the names and creates
  // one column per name. False on failure().
  bool ParseHeader();
  // For a chunk after the first: the columns come from the first chunk's header.
  void SetColumns(const std::vector<std::string>& names);

  // Parses data records while the next one starts before `stop` and fewer than `max_rows` rows
  // were read (0 = no limit).
  ParseStatus ParseRecords(std::size_t stop, std::size_t max_rows,
                           const ParseCheckpoint& checkpoint);

  // Fails with "no data rows after the header", located just after the header.
  void FailNoRows();
  // Takes over the rows of `next`, the parser of the chunk that starts where this one stopped
  // (offset() == next's begin): merges dictionaries, remaps codes, renumbers lines. False (with
  // failure()) when the merged table would have too many rows.
  bool Append(CsvChunkParser& next);

  void Reserve(std::size_t rows);
  std::size_t offset() const { return pos_; }   // where the next record starts
  std::uint64_t line() const { return line_; }  // the line number at offset()
  std::size_t rows() const { return rows_; }
  bool last_record_hit_eof() const { return term_ >= size_; }
  bool header_crlf() const { return header_crlf_; }
  // R's write.csv style: header quoted and every non-missing unquoted field of the first rows
  // numeric.
  bool quote_all_strings() const { return header_all_quoted_ && !saw_bare_text_; }
  const std::vector<std::string>& names() const { return names_; }
  const CsvFailure& failure() const { return failure_; }
  std::vector<ColumnBuilder>& columns() { return columns_; }
  std::vector<std::uint64_t>& row_lines() { return row_lines_; }

 private:
  enum class FieldEnd { kDelimiter, kRecordEnd, kError };
  // text[offset, offset + size), or arena_[...] when `escaped` (doubled quotes undone).
  struct Field {
    std::size_t offset;
    std::size_t size;
    bool quoted;
    bool escaped;
  };
  const char* Data(const Field& field) const {
    return (field.escaped ? arena_.data() : base_) + field.offset;
  }

  FieldEnd NextField(Field& field);
  FieldEnd QuotedField(Field& field);
  FieldEnd AfterClosingQuote(std::size_t after);
  template <bool kDetectDialect>
  ParseStatus ParseLoop(std::size_t stop, std::size_t row_limit, const ParseCheckpoint& checkpoint);
  template <bool kDetectDialect>
  bool ParseRecord();
  bool SkipBlankLine();
  void FlushBatch();
  bool EnsureValid(std::size_t upto);
  bool FailRagged(std::size_t fields);
  bool FailTooManyFields();
  // Records a failure at `offset` in field field_index_ + 1 (or no field), unless the text
  // before it holds a NUL or invalid UTF-8, which is then reported instead. Returns false.
  bool Fail(std::size_t offset, std::string what, bool in_field = true);
  FieldEnd FailField(std::size_t offset, std::string what) {
    Fail(offset, std::move(what));
    return FieldEnd::kError;
  }
  void Locate(std::size_t offset, std::uint64_t& line, std::uint64_t& column) const;

  const char* base_;
  std::size_t size_;
  std::size_t data_start_;
  char delimiter_;
  const MissingTokens& missing_;

  std::size_t pos_;
  std::uint64_t line_;
  std::size_t term_ = 0;  // offset of the last record terminator (size_ at end of file)
  std::size_t record_start_;
  std::uint64_t record_line_;
  std::size_t field_index_ = 0;
  std::size_t header_end_ = 0;
  std::size_t next_check_ = 0;  // the next checkpoint by bytes

  std::size_t validated_;  // text[.., validated_) has no NUL and is valid UTF-8
  bool bad_found_ = false;
  std::size_t bad_offset_ = 0;
  std::string bad_problem_;

  std::vector<std::string> names_;
  std::vector<ColumnBuilder> columns_;
  // The batch of rows not yet handed to columns_: cells_[column * batch_capacity_ + row in
  // batch];
  // arena_ holds the unescaped text of fields with doubled quotes, each followed by 8 NULs.
  std::vector<CsvCell> cells_;
  std::uint32_t batch_capacity_ = 1;
  std::uint32_t batch_rows_ = 0;
  std::string arena_;
  std::vector<std::uint64_t> row_lines_;
  std::uint32_t rows_ = 0;
  bool multi_column_ = false;

  bool header_crlf_ = false;
  bool header_all_quoted_ = false;
  bool saw_bare_text_ = false;
  CsvFailure failure_;
};

}  // namespace deniable::internal
