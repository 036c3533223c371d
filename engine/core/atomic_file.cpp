// SPDX-License-Identifier: Apache-2.0
#include "engine/core/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace deniable {
namespace {

std::string ErrnoText() { return std::strerror(errno); }

}  // namespace

Result<AtomicFile> AtomicFile::Create(const std::string& destination, bool owner_only) {
  if (destination.empty()) return InvalidArgument("output path is empty");
  std::filesystem::path dest(destination);
  std::error_code ec;
  if (std::filesystem::is_directory(dest, ec)) {
    return InvalidArgument("output path '" + destination + "' is a directory");
  }
  std::filesystem::path dir = dest.parent_path();
  if (dir.empty()) dir = ".";
  if (!std::filesystem::is_directory(dir, ec)) {
    return IoError("cannot write '" + destination + "': directory '" + dir.string() +
                   "' does not exist");
  }
  std::string pattern = (dir / ("." + dest.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = mkstemp(pattern.data());
  if (fd < 0) return IoError("cannot create a file in '" + dir.string() + "': " + ErrnoText());
  // mkstemp creates 0600; give the output the usual permissions (umask applies) unless it is
  // for the owner only.
  if (!owner_only) {
    const mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
  }
  std::FILE* file = fdopen(fd, "wb");
  if (file == nullptr) {
    close(fd);
    unlink(pattern.c_str());
    return IoError("cannot open '" + pattern + "': " + ErrnoText());
  }
  std::setvbuf(file, nullptr, _IOFBF, 1 << 20);
  return AtomicFile(destination, pattern, file);
}

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : destination_(std::move(other.destination_)),
      temp_path_(std::move(other.temp_path_)),
      file_(std::exchange(other.file_, nullptr)),
      failed_(other.failed_) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    Discard();
    destination_ = std::move(other.destination_);
    temp_path_ = std::move(other.temp_path_);
    file_ = std::exchange(other.file_, nullptr);
    failed_ = other.failed_;
  }
  return *this;
}

AtomicFile::~AtomicFile() { Discard(); }

void AtomicFile::Discard() {
  if (file_ != nullptr) {
    std::fclose(file_);
    file_ = nullptr;
    unlink(temp_path_.c_str());
  }
}

void AtomicFile::Write(std::string_view bytes) {
  if (file_ == nullptr || failed_ || bytes.empty()) return;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) failed_ = true;
}

Status AtomicFile::Commit() {
  if (file_ == nullptr) return InternalError("AtomicFile committed twice");
  const bool flushed = !failed_ && std::fflush(file_) == 0 && fsync(fileno(file_)) == 0;
  const int saved_errno = errno;
  std::fclose(file_);
  file_ = nullptr;
  if (!flushed) {
    unlink(temp_path_.c_str());
    return IoError("cannot write '" + destination_ + "': " + std::strerror(saved_errno));
  }
  if (std::rename(temp_path_.c_str(), destination_.c_str()) != 0) {
    const std::string why = ErrnoText();
    unlink(temp_path_.c_str());
    return IoError("cannot write '" + destination_ + "': " + why);
  }
  return OkStatus();
}

Status WriteFileAtomically(const std::string& destination, std::string_view contents) {
  auto file = AtomicFile::Create(destination);
  if (!file) return file.error();
  file->Write(contents);
  return file->Commit();
}

Status CheckNotOverwritingInput(const std::string& output,
                                std::initializer_list<std::string_view> inputs) {
  struct stat out_stat {};
  const bool out_exists = ::stat(output.c_str(), &out_stat) == 0;
  std::error_code ec;
  const auto out_abs = std::filesystem::weakly_canonical(output, ec);
  for (std::string_view input_view : inputs) {
    const std::string input(input_view);
    if (input.empty()) continue;
    struct stat in_stat {};
    if (out_exists && ::stat(input.c_str(), &in_stat) == 0 && in_stat.st_dev == out_stat.st_dev &&
        in_stat.st_ino == out_stat.st_ino) {
      return InvalidArgument("refusing to write '" + output + "': it is the input file '" +
                             input + "'");
    }
    std::error_code ec2;
    if (!ec && std::filesystem::weakly_canonical(input, ec2) == out_abs && !ec2) {
      return InvalidArgument("refusing to write '" + output + "': it is the input file '" +
                             input + "'");
    }
  }
  return OkStatus();
}

Result<std::string> ReadFileToString(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return IoError("'" + path + "' is a directory, not a file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("cannot open '" + path + "': " + ErrnoText());
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return IoError("cannot read '" + path + "': " + ErrnoText());
  return buffer.str();
}

}  // namespace deniable
