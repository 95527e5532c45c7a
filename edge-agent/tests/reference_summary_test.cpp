// A batch that summarises its sampled references (ReferenceSummary) against
// the same batch carrying them: their count, span and I/O mix.
#include <map>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "sampling/keyed_hash.hpp"
#include "sampling/reference_batcher.hpp"
#include "sampling/shards_sampler.hpp"
#include "sampling/tenant_key.hpp"
#include "test_support.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::sampling {
namespace {

TEST(ReferenceSummary, ABatchSummarisesWhatItsReferencesWouldHaveBeen) {
  KeyedHasher hasher(TenantKey{});
  ShardsSampler sampler(hasher, 0.1);
  std::vector<tierwise::v1::ReferenceBatch> carried, summarised;
  ReferenceBatcher with("h", "v", sampler, [&](const auto& b) { carried.push_back(b); });
  ReferenceBatcher without("h", "v", sampler, [&](const auto& b) { summarised.push_back(b); });
  without.set_summarise_references(true);
  auto reader = trace::open_trace(tierwise::testing::trace_path("cloudphysics_w_sample.vscsi"));
  trace::IoRecord io;
  while (reader->next(io)) {
    with.add(io, io.time_us);
    without.add(io, io.time_us);
  }
  with.flush();
  without.flush();
  ASSERT_EQ(carried.size(), summarised.size());
  ASSERT_GT(carried.size(), 1u);
  for (size_t n = 0; n < carried.size(); ++n) {
    const tierwise::v1::ReferenceBatch& c = carried[n];
    const tierwise::v1::ReferenceBatch& s = summarised[n];
    EXPECT_EQ(s.references_size(), 0);
    EXPECT_EQ(s.considered_references(), c.considered_references()) << n;
    EXPECT_EQ(s.sampling_threshold(), c.sampling_threshold()) << n;
    if (c.references_size() == 0) {
      EXPECT_FALSE(s.has_reference_summary()) << n;
      continue;
    }
    const tierwise::v1::ReferenceSummary& summary = s.reference_summary();
    EXPECT_EQ(summary.references(), static_cast<uint64_t>(c.references_size())) << n;
    const auto time = [&](int i) { return c.base_time_unix_nano() + c.references(i).time_offset_us() * 1000; };
    EXPECT_EQ(summary.first_reference_unix_nano(), time(0)) << n;
    EXPECT_EQ(summary.last_reference_unix_nano(), time(c.references_size() - 1)) << n;
    std::map<std::pair<int, uint32_t>, uint64_t> want;
    for (const auto& r : c.references()) ++want[{r.direction(), r.length_blocks()}];
    std::map<std::pair<int, uint32_t>, uint64_t> got;
    std::pair<int, uint32_t> previous{0, 0};
    for (const auto& l : summary.io_lengths()) {
      const std::pair<int, uint32_t> key{l.direction(), l.length_blocks()};
      EXPECT_LT(previous, key) << "by direction, read first, then length, each once";
      previous = key;
      got[key] = l.references();
    }
    EXPECT_EQ(got, want) << n;
    EXPECT_EQ(s.working_set().shares_size(), c.working_set().shares_size()) << "the same windows either way";
  }
}

}  // namespace
}  // namespace tierwise::sampling
