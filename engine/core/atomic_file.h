// SPDX-License-Identifier: Apache-2.0
// Atomic output files: write to a temporary file in the destination's directory, flush it to
// disk, then rename it over the destination. A crash, a full disk or a cancelled run leaves the
// destination as it was (absent or with its previous content), never half-written.
//
// Temporary files are named `.NAME.tmp-PID-XXXXXX` (PID = the writing process). A kill -9
// between create and rename leaves one behind; the next Create() for the same NAME in that
// directory removes every `.NAME.tmp-PID-*` whose PID is no longer a running process, so a stale
// temporary file lives at most until the next write of that file (issue 12, item 4). Files of
// live processes are never touched (a concurrent writer's, or a recycled PID's: those are
// removed on a later write).
#pragma once

#include <sys/types.h>

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
  // `mode`: the permissions of the new file before the umask (0600 for owner-only files).
  static Result<AtomicFile> Create(const std::string& destination, mode_t mode = 0666);
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
Status WriteFileAtomically(const std::string& destination, std::string_view contents,
                           mode_t mode = 0666);

// Removes `.NAME.tmp-PID-*` beside `destination` whose PID is not a running process; returns
// how many it removed. Create() calls it; exposed for the tests and for callers that want to
// tidy a directory they are about to list.
std::size_t RemoveStaleTemporaries(const std::string& destination);

// Refuses (kInvalidArgument) when `output` names the same file as any of `inputs` (same path or
// same device and inode, so symlinks and "./x" vs "x" are caught): the input is never modified.
Status CheckNotOverwritingInput(const std::string& output,
                                std::initializer_list<std::string_view> inputs);

// Reads a whole file; errors name the path.
Result<std::string> ReadFileToString(const std::string& path);

}  // namespace deniable
