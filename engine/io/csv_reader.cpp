// SPDX-License-Identifier: Apache-2.0
#include "engine/io/csv_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>

#include "engine/core/parallel.h"
#include "engine/io/csv_parser.h"
#include "engine/io/csv_text.h"

namespace deniable {
namespace {

using internal::CsvChunkParser;
using internal::CsvFailure;
using internal::kCsvPadding;
using internal::MissingTokens;
using internal::ParseStatus;

constexpr std::size_t kReadBlock = std::size_t{16} << 20;
// A preview (max_rows > 0) first reads this much of the file, then 4x more while it needs more.
constexpr std::size_t kPreviewPrefix = std::size_t{1} << 20;
// Bodies at least this large are parsed on two threads.
constexpr std::size_t kParallelMinBytes = std::size_t{4} << 20;

// A file's bytes followed by kCsvPadding '\n' bytes (the parser's scan sentinel).
class PaddedText {
 public:
  explicit PaddedText(std::size_t size)
      : data_(std::make_unique_for_overwrite<char[]>(size + kCsvPadding)) {
    Resize(size);
  }
  char* data() { return data_.get(); }
  std::string_view view() const { return std::string_view(data_.get(), size_); }
  // Shrinks (a file that got shorter while being read).
  void Resize(std::size_t size) {
    size_ = size;
    std::memset(data_.get() + size, '\n', kCsvPadding);
  }

 private:
  std::unique_ptr<char[]> data_;
  std::size_t size_ = 0;
};

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

Error FailureError(const std::string& source, const CsvFailure& failure) {
  std::string message = source + ":" + std::to_string(failure.line) + ":" +
                        std::to_string(failure.column) + ": " + failure.what;
  if (failure.field > 0) message += " (field " + std::to_string(failure.field) + ")";
  return ParseError(std::move(message));
}

Status ValidateOptions(const CsvReadOptions& options) {
  return options.delimiter == 0 ? OkStatus() : internal::CheckDelimiter(options.delimiter);
}

// Rows expected in text[body, size), from the line density of a sample; only a reservation hint.
std::size_t EstimateRows(std::string_view text, std::size_t body, std::size_t columns) {
  const std::size_t rest = text.size() - body;
  const std::size_t sample = std::min<std::size_t>(rest, std::size_t{1} << 20);
  std::size_t lines = 0;
  const char* p = text.data() + body;
  const char* end = p + sample;
  while (const void* hit = std::memchr(p, '\n', static_cast<std::size_t>(end - p))) {
    ++lines;
    p = static_cast<const char*>(hit) + 1;
  }
  if (sample == rest) return lines + 1;
  const double estimate =
      static_cast<double>(rest) * static_cast<double>(lines) / static_cast<double>(sample) * 1.05;
  // Each row takes at least `columns` bytes (delimiters and line break).
  return std::min(static_cast<std::size_t>(estimate) + 16,
                  rest / std::max<std::size_t>(1, columns) + 1);
}

// Parses the body in two chunks on two threads, speculating that the first line break after the
// middle ends a record. The first chunk's parser, on reaching that point, confirms it (it stops
// exactly there) or refutes it (the break was inside a quoted field: it finishes the file
// alone). Only the calling thread talks to `progress`. On kFailed, `failure` says why; a
// thread's exception (std::bad_alloc) becomes the error (engine/core/parallel.h).
Result<ParseStatus> ParseInTwo(std::string_view text, std::size_t data_start,
                               CsvChunkParser& first, const MissingTokens& missing, char delimiter,
                               std::size_t estimated_rows,
                               const internal::ParseCheckpoint& checkpoint, Progress& progress,
                               const std::string& stage, CsvFailure& failure) {
  const std::size_t body = first.offset();
  const std::size_t size = text.size();
  const std::size_t middle = body + (size - body) / 2;
  const void* line_break = std::memchr(text.data() + middle, '\n', size - middle);
  const std::size_t split =
      line_break == nullptr
          ? size
          : static_cast<std::size_t>(static_cast<const char*>(line_break) - text.data()) + 1;
  if (split >= size) {
    const ParseStatus status = first.ParseRecords(size, 0, checkpoint);
    failure = first.failure();
    return status;
  }

  CsvChunkParser second(text, data_start, split, /*first_line=*/1, delimiter, missing);
  second.SetColumns(first.names());
  second.Reserve(estimated_rows / 2 + estimated_rows / 16);
  std::atomic<std::size_t> second_offset{split};
  std::atomic<bool> second_finished{false};
  ParseStatus second_status = ParseStatus::kOk;
  ParseStatus status = ParseStatus::kOk;
  bool alone = false;  // the first parser's status is final (the second chunk is not needed)

  const double total = static_cast<double>(size - body);
  const auto report = [&](std::size_t first_offset) {
    const std::size_t done =
        (first_offset - body) + (second_offset.load(std::memory_order_relaxed) - split);
    progress.Report(static_cast<double>(done) / total, stage);
  };
  // Worker 0 (the calling thread): the first chunk; it stops the second when it is not needed.
  const auto parse_first = [&](StopFlag& stop) {
    status = first.ParseRecords(split, 0, [&](std::size_t offset) {
      if (progress.IsCancelled()) return false;
      report(offset);
      return true;
    });
    if (status == ParseStatus::kOk && first.offset() != split) {
      stop.Stop();  // refuted: the second chunk is wasted; the first parses the rest alone
      status = first.ParseRecords(size, 0, checkpoint);
      alone = true;
      return;
    }
    if (status != ParseStatus::kOk || first.offset() >= size) {
      alone = true;
      return;
    }
    while (!second_finished.load()) {
      if (progress.IsCancelled()) {
        status = ParseStatus::kCancelled;
        alone = true;
        return;
      }
      report(split);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };
  Status ran = ForkJoin(2, "parsing the CSV file", [&](std::size_t worker, StopFlag& stop) {
    if (worker == 1) {
      second_status = second.ParseRecords(size, 0, [&](std::size_t offset) {
        second_offset.store(offset, std::memory_order_relaxed);
        return !stop.stopped();
      });
      second_finished.store(true);
      return;
    }
    parse_first(stop);
    stop.Stop();
  });
  if (!ran) return ran.error();
  if (alone) {
    failure = first.failure();
    return status;
  }
  if (second_status == ParseStatus::kCancelled) return second_status;
  if (second_status == ParseStatus::kFailed) {
    failure = second.failure();
    failure.line += first.line() - 1;  // the second chunk numbered its first line 1
    return second_status;
  }
  if (!first.Append(second)) {
    failure = first.failure();
    return ParseStatus::kFailed;
  }
  return ParseStatus::kOk;
}

// Parses a whole padded text, or, when `is_prefix`, only the beginning of a file for a preview:
// then nullopt means "the beginning does not settle it, read more".
std::optional<Result<RawTable>> ParseText(std::string_view text, bool is_prefix,
                                          const std::string& source, const CsvReadOptions& options,
                                          Progress& progress, const std::string& stage) {
  std::size_t start = 0;
  bool bom = false;
  if (text.starts_with("\xEF\xBB\xBF")) {
    start = 3;
    bom = true;
  } else if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) {
    return Result<RawTable>(
        ParseError(source +
                   ":1:1: the file is UTF-16 (it starts with a UTF-16 byte order mark); save it "
                   "as UTF-8"));
  }
  const char delimiter =
      options.delimiter != 0 ? options.delimiter : DetectDelimiter(text.substr(start));
  const MissingTokens missing(options.missing_tokens);
  CsvChunkParser first(text, start, start, /*first_line=*/1, delimiter, missing);
  if (!first.ParseHeader()) {
    if (is_prefix) return std::nullopt;
    return Result<RawTable>(FailureError(source, first.failure()));
  }
  std::size_t estimated_rows = EstimateRows(text, first.offset(), first.names().size());
  if (options.max_rows > 0) estimated_rows = std::min(estimated_rows, options.max_rows);
  first.Reserve(estimated_rows);

  const double size = static_cast<double>(std::max<std::size_t>(text.size(), 1));
  const internal::ParseCheckpoint checkpoint = [&](std::size_t offset) {
    if (progress.IsCancelled()) return false;
    progress.Report(static_cast<double>(offset) / size, stage);
    return true;
  };
  const bool parallel = !is_prefix && options.max_rows == 0 &&
                        text.size() - first.offset() >= kParallelMinBytes &&
                        std::thread::hardware_concurrency() >= 2;
  ParseStatus status;
  CsvFailure failure;
  if (parallel) {
    Result<ParseStatus> two = ParseInTwo(text, start, first, missing, delimiter, estimated_rows,
                                         checkpoint, progress, stage, failure);
    if (!two) return Result<RawTable>(two.error().WithContext(source));
    status = *two;
  } else {
    status = first.ParseRecords(text.size(), options.max_rows, checkpoint);
    failure = first.failure();
  }
  if (status == ParseStatus::kCancelled) {
    return Result<RawTable>(Cancelled("reading " + source + " cancelled"));
  }
  if (is_prefix && (status == ParseStatus::kFailed || first.rows() < options.max_rows ||
                    first.last_record_hit_eof())) {
    return std::nullopt;
  }
  if (status == ParseStatus::kFailed) return Result<RawTable>(FailureError(source, failure));
  if (first.rows() == 0) {
    first.FailNoRows();
    return Result<RawTable>(FailureError(source, first.failure()));
  }
  RawTable table;
  table.source = source;
  table.dialect = CsvDialect{delimiter, bom, first.header_crlf(), first.quote_all_strings()};
  table.columns.reserve(first.columns().size());
  for (internal::ColumnBuilder& column : first.columns()) table.columns.push_back(column.Take());
  table.row_line = std::move(first.row_lines());
  progress.Report(1.0, stage);
  return Result<RawTable>(std::move(table));
}

// Reads [begin, end) of an open file into text + begin; returns the bytes read (fewer when the
// file shrank meanwhile). With `progress`, polls it for cancellation between blocks.
Result<std::size_t> ReadRange(int fd, const std::string& path, std::size_t begin, std::size_t end,
                              char* text, Progress* progress) {
  std::size_t done = begin;
  while (done < end) {
    if (progress != nullptr && progress->IsCancelled()) {
      return Cancelled("reading " + path + " cancelled");
    }
    const std::size_t want = std::min(kReadBlock, end - done);
    const ssize_t got = ::pread(fd, text + done, want, static_cast<off_t>(done));
    if (got < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot read '" + path + "': " + std::strerror(errno));
    }
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  return done - begin;
}

// Reads text[0, size) of an open file; large files in two halves on two threads (the copy out
// of the page cache and the page faults on the buffer then run in parallel). Returns the bytes
// actually read.
Result<std::size_t> ReadInto(int fd, const std::string& path, std::size_t size, char* text,
                             Progress& progress) {
  if (size < kParallelMinBytes || std::thread::hardware_concurrency() < 2) {
    return ReadRange(fd, path, 0, size, text, &progress);
  }
  const std::size_t half = size / 2;
  std::optional<Result<std::size_t>> parts[2];
  Status ran = ForkJoin(2, "reading the CSV file", [&](std::size_t worker, StopFlag&) {
    parts[worker] = worker == 0 ? ReadRange(fd, path, 0, half, text, &progress)
                                : ReadRange(fd, path, half, size, text, /*progress=*/nullptr);
  });
  if (!ran) return ran.error().WithContext(path);
  if (!*parts[0]) return parts[0]->error();
  if (!*parts[1]) return parts[1]->error();
  return **parts[0] < half ? **parts[0] : half + **parts[1];
}

Status CheckFitsInMemory(const std::string& path, std::size_t size, const CsvReadOptions& options);

// Pipes and other files without a known size: read to the end, refusing once what was read
// would not fit in memory.
Result<std::string> ReadStream(int fd, const std::string& path, const CsvReadOptions& options,
                               Progress& progress) {
  std::string bytes;
  std::size_t done = 0;
  while (true) {
    if (progress.IsCancelled()) return Cancelled("reading " + path + " cancelled");
    bytes.resize(done + kReadBlock);
    const ssize_t got = ::read(fd, bytes.data() + done, kReadBlock);
    if (got < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot read '" + path + "': " + std::strerror(errno));
    }
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
    if (Status fits = CheckFitsInMemory(path, done, options); !fits) return fits.error();
  }
  bytes.resize(done);
  return bytes;
}

// MemAvailable of /proc/meminfo in bytes, or 0 when it cannot be read.
std::uint64_t MemAvailable() {
  const FileDescriptor file(::open("/proc/meminfo", O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) return 0;
  char buffer[4096];
  const ssize_t got = ::read(file.get(), buffer, sizeof(buffer) - 1);
  if (got <= 0) return 0;
  buffer[got] = '\0';
  const char* line = std::strstr(buffer, "MemAvailable:");
  if (line == nullptr) return 0;
  unsigned long long kilobytes = 0;
  if (std::sscanf(line, "MemAvailable: %llu kB", &kilobytes) != 1) return 0;
  return static_cast<std::uint64_t>(kilobytes) * 1024;
}

std::string Format(double x) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", x);
  return text;
}

std::string Gigabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f GB", bytes / 1e9);
  return text;
}

// Refuses a whole-file read that would not fit in memory (CsvReadOptions::available_memory).
Status CheckFitsInMemory(const std::string& path, std::size_t size, const CsvReadOptions& options) {
  const std::uint64_t available =
      options.available_memory != 0 ? options.available_memory : MemAvailable();
  const double needed = static_cast<double>(size) * kCsvMemoryPerByte;
  if (available == 0 || needed <= static_cast<double>(available)) return OkStatus();
  return FailedPrecondition(
      "'" + path + "' is too large for the memory available: reading its " +
      Gigabytes(static_cast<double>(size)) + " needs about " + Gigabytes(needed) + " (" +
      Format(kCsvMemoryPerByte) + " bytes per byte of CSV) and " +
      Gigabytes(static_cast<double>(available)) +
      " is available; use a sample of the file, drop columns, or free memory");
}

}  // namespace

Result<RawTable> ParseCsv(std::string_view text, std::string_view source_name,
                          const CsvReadOptions& options, Progress& progress) {
  if (Status valid = ValidateOptions(options); !valid) return valid.error();
  PaddedText padded(text.size());
  if (!text.empty()) std::memcpy(padded.data(), text.data(), text.size());
  const std::string source(source_name);
  return *ParseText(padded.view(), false, source, options, progress, "Parsing " + source);
}

Result<RawTable> ReadCsv(const std::string& path, const CsvReadOptions& options,
                         Progress& progress) {
  if (Status valid = ValidateOptions(options); !valid) return valid.error();
  const std::string stage = "Reading " + internal::BaseName(path);
  progress.Report(0.0, stage);
  const FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) return IoError("cannot open '" + path + "': " + std::strerror(errno));
  struct stat info {};
  if (::fstat(file.get(), &info) != 0) {
    return IoError("cannot read '" + path + "': " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) return IoError("'" + path + "' is a directory, not a CSV file");
  if (!S_ISREG(info.st_mode)) {
    Result<std::string> bytes = ReadStream(file.get(), path, options, progress);
    if (!bytes) return bytes.error();
    PaddedText text(bytes->size());
    if (!bytes->empty()) std::memcpy(text.data(), bytes->data(), bytes->size());
    return *ParseText(text.view(), false, path, options, progress, stage);
  }
  const auto size = static_cast<std::size_t>(info.st_size);
  if (options.max_rows == 0) {
    if (Status fits = CheckFitsInMemory(path, size, options); !fits) return fits.error();
  }
  // A preview reads a growing prefix until it settles the requested rows.
  std::size_t prefix = options.max_rows > 0 ? std::min(kPreviewPrefix, size) : size;
  while (true) {
    PaddedText text(prefix);
    Result<std::size_t> got = ReadInto(file.get(), path, prefix, text.data(), progress);
    if (!got) return got.error();
    const bool whole = *got < prefix || prefix == size;
    text.Resize(*got);
    std::optional<Result<RawTable>> table =
        ParseText(text.view(), !whole, path, options, progress, stage);
    if (table) return std::move(*table);
    prefix = std::min(size, prefix * 4);
  }
}

}  // namespace deniable
