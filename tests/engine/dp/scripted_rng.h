// SPDX-License-Identifier: Apache-2.0
// A deterministic Rng that returns a scripted list of words, then `fill` forever. Lets unit
// tests drive the exact samplers through chosen branches. Not random at all: tests only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "engine/core/random.h"

namespace deniable::test_support {

class ScriptedRng final : public Rng {
 public:
  explicit ScriptedRng(std::vector<std::uint64_t> words, std::uint64_t fill = 0)
      : words_(std::move(words)), fill_(fill) {}
  result_type operator()() override {
    ++calls_;
    return next_ < words_.size() ? words_[next_++] : fill_;
  }
  bool is_secure() const override { return false; }
  std::unique_ptr<Rng> Fork(std::uint64_t) const override {
    return std::make_unique<ScriptedRng>(words_, fill_);
  }
  std::size_t calls() const { return calls_; }

 private:
  std::vector<std::uint64_t> words_;
  std::uint64_t fill_;
  std::size_t next_ = 0;
  std::size_t calls_ = 0;
};

}  // namespace deniable::test_support
