// SPDX-License-Identifier: Apache-2.0
// Where test data lives. Shared datasets (../shared/data) may be absent: tests that need them
// call DENIABLE_REQUIRE_SHARED_FILE, which skips with a clear message.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

namespace deniable::test_support {

inline std::string TestDataPath(const std::string& name) {
  return std::string(DENIABLE_TEST_DATA_DIR) + "/" + name;
}
inline std::string SharedDataPath(const std::string& name) {
  return std::string(DENIABLE_SHARED_DATA_DIR) + "/" + name;
}
inline std::string SourcePath(const std::string& relative) {
  return std::string(DENIABLE_SOURCE_DIR) + "/" + relative;
}

// A fresh empty directory under the system temp dir, unique per test.
inline std::string TempDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir = std::filesystem::temp_directory_path() /
                              ("deniable-test-" + std::string(info->test_suite_name()) + "-" +
                               info->name() + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

}  // namespace deniable::test_support

// Skips the current test when a file from ../shared/data is not present.
#define DENIABLE_REQUIRE_SHARED_FILE(path_variable, name)                                   \
  const std::string path_variable = ::deniable::test_support::SharedDataPath(name);        \
  if (!std::filesystem::exists(path_variable)) {                                            \
    GTEST_SKIP() << "shared dataset " << path_variable                                      \
                 << " is absent (it lives in ../shared/data beside the project); skipped"; \
  }
