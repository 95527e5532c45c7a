// Sweeps of power-loss cases (power_loss_harness.hpp): run many, keep the
// failing ones with their reproduction lines, add up what they exercised.
// Shared by power_loss_test and power_loss_planted_build_test.
#pragma once

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "power_loss_harness.hpp"

namespace tierwise::test::plsim {

using Clock = std::chrono::steady_clock;

inline uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}
inline bool verbose() { return env_u64("TIERWISE_PLSIM_VERBOSE", 0) != 0; }

// Runs cases, keeps the failing ones (each with its reproduction line) and
// adds up what they exercised.
struct Sweep {
  std::vector<std::string> failures;
  Stats stats;
  uint64_t cases = 0;
  double seconds = 0;

  void run(const Profile& p, const Case& c) {
    const auto start = Clock::now();
    const Result r = run_case(p, c);
    seconds += std::chrono::duration<double>(Clock::now() - start).count();
    ++cases;
    stats.add(r.stats);
    if (verbose()) std::cout << c.describe(p) << (r.failures.empty() ? " ok" : " FAILED") << '\n';
    if (r.failures.empty()) return;
    std::string text = c.describe(p);
    for (const std::string& f : r.failures) text += "\n    " + f;
    failures.push_back(text);
    if (!quiet) std::cout << "FAILED " << text << '\n';
  }
  bool any_failure_says(const std::string& words) const {
    for (const std::string& f : failures) {
      if (f.find(words) != std::string::npos) return true;
    }
    return false;
  }
  std::string summary(const std::string& what) const {
    std::ostringstream s;
    s << what << ": " << cases << " cases, " << stats.cuts << " power cuts, " << seconds
      << " s; " << stats.acked_writes << " acknowledged writes (" << stats.journaled_writes
      << " journaled), " << stats.checked_reads
      << " reads checked, " << stats.durable_sectors << " durable sectors checked; device "
      << "writes unflushed at the cuts " << stats.unflushed_writes << " (kept "
      << stats.kept_writes << ", torn " << stats.torn_writes << "); journal records applied "
      << stats.records_applied << ", torn records ignored " << stats.torn_records_ignored << "; "
      << failures.size() << " failed";
    return s.str();
  }
  bool quiet = false;  // planted bugs: their many failures are expected
};

// Cuts power once at every flush boundary of the seed's run.
inline void sweep_flush_boundaries(const Profile& p, uint64_t seed, Sweep* sweep) {
  const Result recorded = run_case(p, Case{seed, {}, 0});
  ASSERT_TRUE(recorded.failures.empty()) << Case{seed, {}, 0}.describe(p) << ": "
                                         << recorded.failures.front();
  ASSERT_FALSE(recorded.flush_steps.empty());
  for (const uint64_t step : flush_boundaries(recorded)) sweep->run(p, Case{seed, {step}, 0});
}

inline void expect_clean(const Sweep& sweep, const std::string& what) {
  std::cout << sweep.summary(what) << '\n';
  EXPECT_TRUE(sweep.failures.empty()) << sweep.failures.size() << " cases failed; first:\n"
                                      << sweep.failures.front();
}

}  // namespace tierwise::test::plsim
