// SPDX-License-Identifier: Apache-2.0
// The long DP audit: every case of engine/audit/audit_cases.h with `scale` times the samples of
// the short audit in the tests, one line per case (ε_lb, claim, verdict, event, samples,
// seconds). Exit code 1 when a real mechanism fails or a broken one is not caught.
//
//   nice -n 10 build/bench/dp_audit --scale 10 > audit.txt
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "engine/audit/audit_cases.h"
#include "engine/audit/dp_auditor.h"

namespace {

int Usage() {
  std::fprintf(stderr,
               "usage: dp_audit [--scale N] [--seed S] [--only NAME] [--show N] "
               "[--mechanisms|--modes]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace deniable;
  double scale = 10;
  std::uint64_t seed = 20261127;
  std::string only;
  int show = 0;  // --show N: print the features of N runs on D and on D′ instead of auditing
  bool mechanisms = true;
  bool modes = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--scale" && i + 1 < argc) {
      scale = std::strtod(argv[++i], nullptr);
      if (!(scale > 0)) return Usage();
    } else if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--show" && i + 1 < argc) {
      show = std::atoi(argv[++i]);
    } else if (arg == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else if (arg == "--mechanisms") {
      modes = false;
    } else if (arg == "--modes") {
      mechanisms = false;
    } else {
      return Usage();
    }
  }
  std::vector<AuditCase> cases;
  for (bool modes_part : {false, true}) {
    if (modes_part ? !modes : !mechanisms) continue;
    auto part = modes_part ? SynthesisAuditCases() : MechanismAuditCases();
    if (!part) {
      std::fprintf(stderr, "dp_audit: %s\n", part.error().message.c_str());
      return 1;
    }
    for (AuditCase& c : *part) cases.push_back(std::move(c));
  }
  int failures = 0;
  std::printf(
      "| case | claim (eps, delta) | eps_lb | verdict | samples per input | seconds | event |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (const AuditCase& c : cases) {
    if (!only.empty() && c.name != only) continue;
    if (show > 0) {
      SeededRng words(seed);
      for (bool neighbour : {false, true}) {
        for (int r = 0; r < show; ++r) {
          SeededRng rng(words());
          std::printf("%s %s:", c.name.c_str(), neighbour ? "D'" : "D ");
          for (double f : c.mechanism(neighbour, rng)) std::printf(" %g", f);
          std::printf("\n");
        }
      }
      continue;
    }
    AuditOptions options;
    options.samples = static_cast<std::size_t>(static_cast<double>(c.samples) * scale);
    options.delta = c.delta_claimed;
    options.seed = seed;
    auto result = AuditDp(c.mechanism, options);
    if (!result) {
      std::fprintf(stderr, "dp_audit: %s: %s\n", c.name.c_str(), result.error().message.c_str());
      ++failures;
      continue;
    }
    const bool caught = result->epsilon_lb > c.epsilon_claimed;
    const bool ok = c.broken ? caught : !caught;
    if (!ok) ++failures;
    const char* verdict = c.broken ? (caught ? "broken: caught" : "broken: MISSED")
                                   : (caught ? "VIOLATION" : "pass");
    std::printf("| %s | (%.4g, %.3g) | %.4f | %s | %zu | %.1f | %s; hits %llu vs %llu of %zu |\n",
                c.name.c_str(), c.epsilon_claimed, c.delta_claimed, result->epsilon_lb, verdict,
                options.samples, result->seconds,
                result->epsilon_lb > 0 ? result->event.Describe(c.feature_names).c_str()
                                       : "no event with a positive bound",
                static_cast<unsigned long long>(result->hits_first),
                static_cast<unsigned long long>(result->hits_second), result->evaluation_samples);
    std::fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
