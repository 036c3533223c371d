// SPDX-License-Identifier: Apache-2.0
// Fuzzes the project file reader (ui/project/project_file.cpp: readProject, with the privacy
// settings' JSON reader of ui/session/session_values.cpp), Qt Core only. readProject takes a
// path, so each input is written to one scratch file (in TMPDIR, default /tmp) first. An
// accepted project is written back with projectText and must read back.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <QDir>

#include "ui/project/project_file.h"

namespace {

const QString& ScratchPath() {
  static const QString path = QDir::temp().filePath(
      QStringLiteral("deniable-fuzz-%1.deniable").arg(static_cast<qint64>(::getpid())));
  return path;
}

bool WriteScratch(const void* data, std::size_t size) {
  std::FILE* file = std::fopen(ScratchPath().toLocal8Bit().constData(), "wb");
  if (file == nullptr) return false;
  const bool ok = std::fwrite(data, 1, size, file) == size;
  return std::fclose(file) == 0 && ok;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace deniable::ui;
  if (!WriteScratch(data, size)) std::abort();  // the harness itself failed: stop loudly
  auto project = readProject(ScratchPath());
  if (!project) return 0;
  const std::string text = projectText(project.value(), ScratchPath());
  if (!WriteScratch(text.data(), text.size()) || !readProject(ScratchPath())) __builtin_trap();
  return 0;
}
