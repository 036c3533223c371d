// SPDX-License-Identifier: Apache-2.0
#include "engine/io/csv_writer.h"

#include <algorithm>
#include <array>
#include <cstdint>
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

  void Append(std::string_view value, std::string& out) const {
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
  void AppendHeaderName(std::string_view name, std::string& out) const {
    if (quote_all_strings_ && !NeedsQuotes(name)) {
      out.push_back('"');
      out.append(name);
      out.push_back('"');
    } else {
      Append(name, out);
    }
  }
  void AppendMissing(std::string& out) const { out.append(missing_text_); }

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

// The row loop shared by WriteCsv and WriteRawTable. `append_cell(row, column, out)` appends
// the (quoted) text of one cell.
template <typename AppendCell>
Status WriteRows(const std::string& path, const std::vector<std::string>& header, std::size_t rows,
                 const CsvWriteOptions& options, const FieldWriter& writer, Progress& progress,
                 AppendCell&& append_cell) {
  if (Status valid = CheckOptions(options); !valid) return valid;
  if (Status valid = CheckHeader(header); !valid) return valid;
  Result<AtomicFile> file = AtomicFile::Create(path);
  if (!file) return file.error();
  const std::string stage = "Writing " + internal::BaseName(path);
  const std::string_view line_end = options.crlf ? "\r\n" : "\n";
  std::string buffer;
  buffer.reserve(kFlushBytes + (std::size_t{1} << 16));
  if (options.bom) buffer.append(kBom);
  for (std::size_t column = 0; column < header.size(); ++column) {
    if (column > 0) buffer.push_back(options.delimiter);
    writer.AppendHeaderName(header[column], buffer);
  }
  buffer.append(line_end);
  for (std::size_t row = 0; row < rows; ++row) {
    if (row % kCheckEvery == 0) {
      if (progress.IsCancelled()) return Cancelled("writing " + path + " cancelled");
      progress.Report(static_cast<double>(row) / static_cast<double>(rows), stage);
    }
    for (std::size_t column = 0; column < header.size(); ++column) {
      if (column > 0) buffer.push_back(options.delimiter);
      if (Status cell = append_cell(row, column, buffer); !cell) return cell;
    }
    buffer.append(line_end);
    if (buffer.size() >= kFlushBytes) {
      file->Write(buffer);
      buffer.clear();
    }
  }
  file->Write(buffer);
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
                   [&](std::size_t row, std::size_t column, std::string& out) {
                     text.clear();
                     if (cell(row, column, text)) {
                       writer.Append(text, out);
                     } else {
                       writer.AppendMissing(out);
                     }
                     return OkStatus();
                   });
}

Status WriteRawTable(const std::string& path, const RawTable& table, const CsvWriteOptions& options,
                     Progress& progress) {
  if (Status valid = CheckOptions(options); !valid) return valid;
  const FieldWriter writer(options);
  const std::size_t rows = table.num_rows();
  std::vector<std::string> header;
  // Every distinct text quoted once: column c's entry k is texts[c][offsets[c][k], [k + 1]).
  std::vector<std::string> texts(table.num_columns());
  std::vector<std::vector<std::size_t>> offsets(table.num_columns());
  for (std::size_t c = 0; c < table.num_columns(); ++c) {
    const RawColumn& column = table.columns[c];
    if (column.codes.size() != rows) {
      return InvalidArgument("column '" + column.name + "' has " +
                             std::to_string(column.codes.size()) + " rows, the table " +
                             std::to_string(rows));
    }
    header.push_back(column.name);
    offsets[c].reserve(column.dictionary.size() + 1);
    offsets[c].push_back(0);
    for (const std::string& value : column.dictionary) {
      writer.Append(value, texts[c]);
      offsets[c].push_back(texts[c].size());
    }
  }
  return WriteRows(
      path, header, rows, options, writer, progress,
      [&](std::size_t row, std::size_t c, std::string& out) {
        const std::uint32_t code = table.columns[c].codes[row];
        if (code == kMissingCode) {
          writer.AppendMissing(out);
        } else if (code + std::size_t{1} < offsets[c].size()) {
          out.append(texts[c], offsets[c][code], offsets[c][code + 1] - offsets[c][code]);
        } else {
          return Status(InvalidArgument("column '" + table.columns[c].name + "' row " +
                                        std::to_string(row) + " has code " + std::to_string(code) +
                                        " outside its dictionary"));
        }
        return OkStatus();
      });
}

}  // namespace deniable
