// SPDX-License-Identifier: Apache-2.0
// Atomic output files: write to a temporary file in the destination's directory, flush it to
// disk, then rename it over the destination. A crash, a full disk or a cancelled run leaves the
// destination as it was (absent or with its previous content), never half-written.
#pragma once

#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>

#include "engine/core/result.h"

namespace deniable {

// Example:
//   auto file = AtomicFile::Create("out.csv");
//   if (!file) return file.error();
//   file->Write("a,b\n");
//   if (auto s = file->Commit(); !s) return s.error();   // without Commit() nothing appears
class AtomicFile {
 public:
  // owner_only: the file gets mode 0600 (real rows, for the owner's eyes only); otherwise the
  // usual 0666 less the umask.
  static Result<AtomicFile> Create(const std::string& destination, bool owner_only = false);
  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  ~AtomicFile();  // discards the temporary file unless committed

  // Buffered; errors are remembered and reported by Commit().
  void Write(std::string_view bytes);
  Status Commit();
  const std::string& destination() const { return destination_; }

 private:
  AtomicFile(std::string destination, std::string temp_path, std::FILE* file)
      : destination_(std::move(destination)), temp_path_(std::move(temp_path)), file_(file) {}
  void Discard();

  std::string destination_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  bool failed_ = false;
};

// Writes a whole file atomically.
Status WriteFileAtomically(const std::string& destination, std::string_view contents);

// Refuses (kInvalidArgument) when `output` names the same file as any of `inputs` (same path or
// same device and inode, so symlinks and "./x" vs "x" are caught): the input is never modified.
Status CheckNotOverwritingInput(const std::string& output,
                                std::initializer_list<std::string_view> inputs);

// Reads a whole file; errors name the path.
Result<std::string> ReadFileToString(const std::string& path);

}  // namespace deniable
