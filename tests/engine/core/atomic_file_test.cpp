// SPDX-License-Identifier: Apache-2.0
// #12 item 4: no temporary file of a killed writer survives the next write.
#include "engine/core/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/paths.h"

namespace deniable {
namespace {

// The pid of a process that has exited (and been reaped): no process has it, until the kernel
// hands it out again, which takes a full cycle of pid_max.
pid_t DeadPid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  return child;
}

void Touch(const std::string& path) { std::ofstream(path) << "partial"; }

std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(AtomicFileTest, TemporaryNameCarriesThePid) {
  const std::string dir = test_support::TempDir();
  auto file = AtomicFile::Create(dir + "/out.csv");
  ASSERT_TRUE(file.has_value());
  const std::vector<std::string> names = Names(dir);
  ASSERT_EQ(names.size(), 1u);
  const std::string prefix = ".out.csv.tmp-" + std::to_string(::getpid()) + "-";
  EXPECT_EQ(names[0].substr(0, prefix.size()), prefix) << names[0];
  file->Write("a\n");
  ASSERT_TRUE(file->Commit().has_value());
  EXPECT_EQ(Names(dir), std::vector<std::string>{"out.csv"});
}

TEST(AtomicFileTest, NextWriteRemovesADeadWritersTemporaryAndKeepsALiveOnes) {  // #12
  const std::string dir = test_support::TempDir();
  const std::string dead = ".out.csv.tmp-" + std::to_string(DeadPid()) + "-Ab3xYz";
  const std::string live = ".out.csv.tmp-" + std::to_string(::getppid()) + "-Qq7pLm";
  const std::string other = ".other.csv.tmp-" + std::to_string(DeadPid()) + "-Zz1aaa";
  const std::string not_ours = ".out.csv.tmp-notapid";
  for (const std::string& name : {dead, live, other, not_ours}) Touch(dir + "/" + name);

  ASSERT_TRUE(WriteFileAtomically(dir + "/out.csv", "x,y\n").has_value());
  // The dead writer's file is gone; a live process's, another file's and a foreign name stay.
  std::vector<std::string> expected = {other, live, not_ours, "out.csv"};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(Names(dir), expected);
  // The other file's stale temporary goes on that file's next write.
  EXPECT_EQ(RemoveStaleTemporaries(dir + "/other.csv"), 1u);
  EXPECT_FALSE(std::filesystem::exists(dir + "/" + other));
}

TEST(AtomicFileTest, KilledWriterLeavesNothingAfterTheNextExport) {  // #12
  const std::string dir = test_support::TempDir();
  const std::string target = dir + "/synthetic.csv";
  const pid_t child = ::fork();
  if (child == 0) {
    auto file = AtomicFile::Create(target);
    if (file.has_value()) file->Write("half a file");
    ::kill(::getpid(), SIGKILL);  // kill -9 between create and commit
    ::_exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  ASSERT_EQ(Names(dir).size(), 1u);  // the killed writer's temporary file
  EXPECT_EQ(Names(dir)[0].rfind(".synthetic.csv.tmp-" + std::to_string(child) + "-", 0), 0u);
  ASSERT_TRUE(WriteFileAtomically(target, "a\n1\n").has_value());
  EXPECT_EQ(Names(dir), std::vector<std::string>{"synthetic.csv"});
}

TEST(AtomicFileTest, OwnerOnlyModeIsApplied) {
  const std::string dir = test_support::TempDir();
  const mode_t mask = ::umask(022);
  ASSERT_TRUE(WriteFileAtomically(dir + "/secret.txt", "s", 0600).has_value());
  ASSERT_TRUE(WriteFileAtomically(dir + "/public.txt", "p").has_value());
  ::umask(mask);
  struct stat info {};
  ASSERT_EQ(::stat((dir + "/secret.txt").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat((dir + "/public.txt").c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
}

}  // namespace
}  // namespace deniable
