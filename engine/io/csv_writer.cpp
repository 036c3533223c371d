// SPDX-License-Identifier: Apache-2.0
#include "engine/io/csv_writer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <unordered_set>

#include "engine/core/atomic_file.h"
#include "engine/io/csv_text.h"

namespace deniable {
namespace {

constexpr std::size_t kFlushBytes = std::size_t{1} << 20;
constexpr std::size_t kCheckEvery = std::size_t{1} << 14;
constexpr std::string_view kBom = "\xEF\xBB\xBF";

// Quotes and appends fields according to one set of options (the rules in csv_writer.h).
class FieldWriter {
 public:
  explicit FieldWriter(const CsvWriteOptions& options)
      : quote_all_strings_(options.quote_all_strings), missing_(options.missing_tokens) {
    special_[static_cast<unsigned char>(options.delimiter)] = true;
    special_['"'] = special_['\r'] = special_['\n'] = true;
    if (!options.missing_tokens.empty() && !missing_.ContainsEmpty()) {
      missing_text_ = options.missing_tokens.front();
    }
  }

  // Out: std::string or OutputBuffer (append(string_view), push_back(char)).
  template <typename Out>
  void Append(std::string_view value, Out& out) const {
    if (!NeedsQuotes(value)) {
      out.append(value);
      return;
    }
    out.push_back('"');
    std::size_t begin = 0;
    for (std::size_t quote = value.find('"'); quote != std::string_view::npos;
         quote = value.find('"', quote + 1)) {
      out.append(value.substr(begin, quote + 1 - begin));  // the quote, then its double
      begin = quote;
    }
    out.append(value.substr(begin));
    out.push_back('"');
  }
  template <typename Out>
  void AppendHeaderName(std::string_view name, Out& out) const {
    if (quote_all_strings_ && !NeedsQuotes(name)) {
      out.push_back('"');
      out.append(name);
      out.push_back('"');
    } else {
      Append(name, out);
    }
  }
  const std::string& missing_text() const { return missing_text_; }

 private:
  bool NeedsQuotes(std::string_view value) const {
    if (value.empty() || missing_.Contains(value)) return true;
    const char first = value.front();
    const char last = value.back();
    if (first == ' ' || first == '\t' || last == ' ' || last == '\t') return true;
    if (value.starts_with(kBom)) return true;
    for (const char c : value) {
      if (special_[static_cast<unsigned char>(c)]) return true;
    }
    return quote_all_strings_ && !internal::IsNumericText(value);
  }

  bool quote_all_strings_;
  internal::MissingTokens missing_;
  std::string missing_text_;
  std::array<bool, 256> special_{};
};

Status CheckOptions(const CsvWriteOptions& options) {
  return internal::CheckDelimiter(options.delimiter);
}

Status CheckHeader(const std::vector<std::string>& header) {
  if (header.empty()) return InvalidArgument("cannot write a CSV file without columns");
  std::unordered_set<std::string_view> seen;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i].empty()) {
      return InvalidArgument("column " + std::to_string(i + 1) + " has an empty name");
    }
    if (!seen.insert(header[i]).second) {
      return InvalidArgument("duplicate column name '" + header[i] + "' (column " +
                             std::to_string(i + 1) + ")");
    }
  }
  return OkStatus();
}

// Buffers output for an AtomicFile and hands out room for raw writes.
class OutputBuffer {
 public:
  explicit OutputBuffer(AtomicFile& file) : file_(file), data_(kFlushBytes + kFlushBytes / 4) {}

  // Room for `bytes` more bytes at the returned pointer; Advance() commits what was written.
  char* Room(std::size_t bytes) {
    if (used_ + bytes > data_.size()) {
      Flush();
      if (bytes > data_.size()) data_.resize(bytes);
    }
    return data_.data() + used_;
  }
  void Advance(std::size_t bytes) { used_ += bytes; }
  void append(std::string_view text) {
    if (!text.empty()) std::memcpy(Room(text.size()), text.data(), text.size());
    used_ += text.size();
  }
  void push_back(char c) {
    *Room(1) = c;
    ++used_;
  }
  std::size_t size() const { return used_; }
  void Flush() {
    file_.Write(std::string_view(data_.data(), used_));
    used_ = 0;
  }

 private:
  AtomicFile& file_;
  std::vector<char> data_;
  std::size_t used_ = 0;
};

// The row loop shared by WriteCsv and WriteRawTable: `append_row(row, out)` writes the cells
// of one row, delimiters included, and returns a Status.
template <typename AppendRow>
Status WriteRows(const std::string& path, const std::vector<std::string>& header, std::size_t rows,
                 const CsvWriteOptions& options, const FieldWriter& writer, Progress& progress,
                 AppendRow&& append_row) {
  if (Status valid = CheckOptions(options); !valid) return valid;
  if (Status valid = CheckHeader(header); !valid) return valid;
  Result<AtomicFile> file = AtomicFile::Create(path, options.owner_only ? 0600 : 0666);
  if (!file) return file.error();
  const std::string stage = "Writing " + internal::BaseName(path);
  const std::string_view line_end = options.crlf ? "\r\n" : "\n";
  OutputBuffer out(*file);
  if (options.bom) out.append(kBom);
  for (std::size_t column = 0; column < header.size(); ++column) {
    if (column > 0) out.push_back(options.delimiter);
    writer.AppendHeaderName(header[column], out);
  }
  out.append(line_end);
  for (std::size_t row = 0; row < rows; ++row) {
    if (row % kCheckEvery == 0) {
      if (progress.IsCancelled()) return Cancelled("writing " + path + " cancelled");
      progress.Report(static_cast<double>(row) / static_cast<double>(rows), stage);
    }
    if (Status written = append_row(row, out); !written) return written;
    out.append(line_end);
    if (out.size() >= kFlushBytes) out.Flush();
  }
  out.Flush();
  if (Status committed = file->Commit(); !committed) return committed;
  progress.Report(1.0, stage);
  return OkStatus();
}

}  // namespace

CsvWriteOptions WriteOptionsFor(const CsvDialect& dialect) {
  CsvWriteOptions options;
  options.delimiter = dialect.delimiter;
  options.crlf = dialect.crlf;
  options.bom = dialect.had_bom;
  options.quote_all_strings = dialect.quote_all_strings;
  return options;
}

void AppendCsvField(std::string_view field, const CsvWriteOptions& options, std::string& line) {
  FieldWriter(options).Append(field, line);
}

Status WriteCsv(const std::string& path, const std::vector<std::string>& header, std::size_t rows,
                const CellWriter& cell, const CsvWriteOptions& options, Progress& progress) {
  if (Status valid = CheckOptions(options); !valid) return valid;
  const FieldWriter writer(options);
  std::string text;
  return WriteRows(path, header, rows, options, writer, progress,
                   [&](std::size_t row, OutputBuffer& out) {
                     for (std::size_t column = 0; column < header.size(); ++column) {
                       if (column > 0) out.push_back(options.delimiter);
                       text.clear();
                       if (cell(row, column, text)) {
                         writer.Append(text, out);
                       } else {
                         out.append(writer.missing_text());
                       }
                     }
                     return OkStatus();
                   });
}

Status WriteRawTable(const std::string& path, const RawTable& table, const CsvWriteOptions& options,
                     Progress& progress) {
  if (Status valid = CheckOptions(options); !valid) return valid;
  const FieldWriter writer(options);
  const std::size_t rows = table.num_rows();
  const std::size_t columns = table.num_columns();
  // Every distinct text quoted once, into a 16-byte entry per dictionary entry: texts of up to
  // 15 bytes inline (one cache line touched per cell, copied with one fixed 16-byte move),
  // longer ones apart. High-cardinality columns are prefetched a few rows ahead.
  struct alignas(16) Entry {
    char text[15];  // the text, or (size == kLong) its index in long_texts
    std::uint8_t size;
  };
  constexpr std::uint8_t kLong = 0xFF;
  constexpr std::size_t kEntryBytes = sizeof(Entry);
  constexpr std::size_t kPrefetchRows = 8;
  constexpr std::size_t kPrefetchEntries = 4096;
  std::vector<std::string> header;
  std::vector<std::vector<Entry>> entries(columns);
  std::vector<std::string> long_texts;
  const std::string& missing = writer.missing_text();
  std::size_t row_bound = columns + kEntryBytes;  // delimiters, and the overcopy
  std::string quoted;
  for (std::size_t c = 0; c < columns; ++c) {
    const RawColumn& column = table.columns[c];
    if (column.codes.size() != rows) {
      return InvalidArgument("column '" + column.name + "' has " +
                             std::to_string(column.codes.size()) + " rows, the table " +
                             std::to_string(rows));
    }
    header.push_back(column.name);
    entries[c].resize(column.dictionary.size());
    std::size_t longest = missing.size();
    for (std::size_t k = 0; k < column.dictionary.size(); ++k) {
      quoted.clear();
      writer.Append(column.dictionary[k], quoted);
      Entry& entry = entries[c][k];
      if (quoted.size() < kLong && quoted.size() <= sizeof entry.text) {
        std::memcpy(entry.text, quoted.data(), quoted.size());
        entry.size = static_cast<std::uint8_t>(quoted.size());
      } else {
        const std::uint64_t index = long_texts.size();
        std::memcpy(entry.text, &index, sizeof index);
        entry.size = kLong;
        long_texts.push_back(quoted);
      }
      longest = std::max(longest, quoted.size());
    }
    row_bound += longest;
  }
  std::vector<std::size_t> prefetched;  // the columns worth prefetching
  for (std::size_t c = 0; c < columns; ++c) {
    if (entries[c].size() >= kPrefetchEntries) prefetched.push_back(c);
  }
  return WriteRows(
      path, header, rows, options, writer, progress, [&](std::size_t row, OutputBuffer& out) {
        if (row + kPrefetchRows < rows) {
          for (const std::size_t c : prefetched) {
            const std::uint32_t ahead = table.columns[c].codes[row + kPrefetchRows];
            if (ahead < entries[c].size()) __builtin_prefetch(&entries[c][ahead]);
          }
        }
        char* const start = out.Room(row_bound);
        char* p = start;
        for (std::size_t c = 0; c < columns; ++c) {
          if (c > 0) *p++ = options.delimiter;
          const std::uint32_t code = table.columns[c].codes[row];
          if (code == kMissingCode) {
            std::memcpy(p, missing.data(), missing.size());
            p += missing.size();
          } else if (code < entries[c].size()) {
            const Entry& entry = entries[c][code];
            if (entry.size != kLong) {
              std::memcpy(p, entry.text, kEntryBytes);  // the row bound leaves room
              p += entry.size;
            } else {
              std::uint64_t index = 0;
              std::memcpy(&index, entry.text, sizeof index);
              const std::string& text = long_texts[index];
              std::memcpy(p, text.data(), text.size());
              p += text.size();
            }
          } else {
            return Status(InvalidArgument("column '" + table.columns[c].name + "' row " +
                                          std::to_string(row) + " has code " +
                                          std::to_string(code) + " outside its dictionary"));
          }
        }
        out.Advance(static_cast<std::size_t>(p - start));
        return OkStatus();
      });
}

}  // namespace deniable
