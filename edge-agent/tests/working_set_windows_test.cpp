// The working-set windows the agent runs for the service (WorkingSetWindows):
// the LRU stack's distances and marks, each pane's shares summed against the
// definition of a pane computed from the whole reference list, the bounded
// sample's evictions, and the batches' WorkingSetShares.
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sampling/keyed_hash.hpp"
#include "sampling/reference_batcher.hpp"
#include "sampling/reuse_distance_stack.hpp"
#include "sampling/shards_sampler.hpp"
#include "sampling/tenant_key.hpp"
#include "sampling/working_set_windows.hpp"
#include "test_support.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::sampling {
namespace {

constexpr uint64_t kModulus = uint64_t{1} << 24;
constexpr int64_t kSecond = 1'000'000'000;

struct Ref {
  uint64_t hash;
  bool write;
  int64_t time;
};

// `n` random block hashes H(L) from `seed`.
std::vector<uint64_t> random_hashes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> hashes(n);
  for (uint64_t& h : hashes) h = rng();
  return hashes;
}

// Distinct blocks referenced strictly between positions `from` and `to`.
uint32_t distinct_between(const std::vector<Ref>& refs, size_t from, size_t to) {
  std::set<uint64_t> seen;
  for (size_t i = from + 1; i < to; ++i) seen.insert(refs[i].hash);
  return static_cast<uint32_t>(seen.size());
}

TEST(WorkingSetWindows, DistanceBucketsAreTheServicesLogLinearLayout) {
  // stream-jobs DistanceHistogram.index: width 1 below 64, then 64 per power of two.
  EXPECT_EQ(WorkingSetWindows::distance_bucket(0), 0u);
  EXPECT_EQ(WorkingSetWindows::distance_bucket(63.9), 63u);
  EXPECT_EQ(WorkingSetWindows::distance_bucket(64), 64u);
  EXPECT_EQ(WorkingSetWindows::distance_bucket(127.5), 127u);
  EXPECT_EQ(WorkingSetWindows::distance_bucket(128), 128u);
  EXPECT_EQ(WorkingSetWindows::distance_bucket(130), 129u);  // [128, 130) is one bucket of width 2
  EXPECT_EQ(WorkingSetWindows::distance_bucket(1024.0 * 1024), 64u + 14 * 64);
  EXPECT_EQ(WorkingSetWindows::distance_bucket(1e300), 64u + 56 * 64 + 63) << "the exponent clipped at 62";
}

TEST(ReuseDistanceStack, DistancesAndMarksMatchAListThroughRemovalsAndCompactions) {
  ReuseDistanceStack stack;
  std::vector<uint64_t> list;  // most recent first
  std::map<uint64_t, ReuseDistanceStack::Marks> marks;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20'000; ++i) {
    const uint64_t key = rng() % 500;
    if (rng() % 50 == 0) {  // a removal, as a bounded sample evicts
      const auto removed = stack.remove(key);
      const auto at = std::find(list.begin(), list.end(), key);
      ASSERT_EQ(removed.has_value(), at != list.end());
      if (at != list.end()) {
        EXPECT_EQ(removed->read_epoch, marks[key].read_epoch);
        list.erase(at);
        marks.erase(key);
      }
      continue;
    }
    const bool write = rng() % 3 == 0;
    const int32_t epoch = i / 1000;
    const ReuseDistanceStack::Reference r = stack.reference(key, write, epoch);
    const auto at = std::find(list.begin(), list.end(), key);
    ASSERT_EQ(r.first, at == list.end()) << "reference " << i;
    if (!r.first) {
      ASSERT_EQ(r.distance, static_cast<uint32_t>(at - list.begin())) << "reference " << i;
      EXPECT_EQ(r.before.read_epoch, marks[key].read_epoch);
      EXPECT_EQ(r.before.write_epoch, marks[key].write_epoch);
      list.erase(at);
    }
    list.insert(list.begin(), key);
    (write ? marks[key].write_epoch : marks[key].read_epoch) = epoch;
    ASSERT_EQ(stack.size(), list.size());
  }
}

// Sums the shares of window `seconds` per pane start (the panes at or after a
// start are what the pane holds), as the service adds them up.
struct PaneSums {
  uint64_t references = 0, reads = 0, block_repeats = 0, read_repeats = 0, write_repeats = 0;
  double weight = 0;
  std::map<uint32_t, double> hits, read_hits;  // bucket -> weight
};

std::map<int64_t, PaneSums> sum_shares(const std::vector<tierwise::v1::WorkingSetShares>& batches, uint32_t seconds) {
  std::map<int64_t, PaneSums> shares;
  for (const auto& b : batches) {
    for (const auto& s : b.shares()) {
      if (s.window_seconds() != seconds) continue;
      PaneSums& p = shares[static_cast<int64_t>(s.pane_start_unix_nano())];
      p.references += s.references();
      p.reads += s.read_references();
      p.block_repeats += s.block_repeats();
      p.read_repeats += s.read_repeats();
      p.write_repeats += s.write_repeats();
      p.weight += s.weight();
      for (int i = 0; i < s.hit_buckets_size(); ++i) p.hits[s.hit_buckets(i)] += s.hit_weights(i);
      for (int i = 0; i < s.read_hit_buckets_size(); ++i) p.read_hits[s.read_hit_buckets(i)] += s.read_hit_weights(i);
    }
  }
  return shares;
}

// A pane from `start` holds the references at or after it: its sum of shares
// (its own and every newer pane's) must be their counts, distinct blocks and
// the stack distances of their re-references within it.
void expect_pane(const std::vector<Ref>& refs, const std::map<int64_t, PaneSums>& shares, int64_t start,
                 const std::string& what) {
  PaneSums sum;
  for (auto it = shares.lower_bound(start); it != shares.end(); ++it) {
    sum.references += it->second.references;
    sum.reads += it->second.reads;
    sum.block_repeats += it->second.block_repeats;
    sum.read_repeats += it->second.read_repeats;
    sum.write_repeats += it->second.write_repeats;
    sum.weight += it->second.weight;
    for (const auto& [bucket, weight] : it->second.hits) sum.hits[bucket] += weight;
    for (const auto& [bucket, weight] : it->second.read_hits) sum.read_hits[bucket] += weight;
  }
  const size_t from = std::lower_bound(refs.begin(), refs.end(), start,
                                       [](const Ref& r, int64_t t) { return r.time < t; }) - refs.begin();
  PaneSums want;
  std::set<uint64_t> blocks, read, written;
  std::map<uint64_t, size_t> last;
  for (size_t i = from; i < refs.size(); ++i) {
    const Ref& r = refs[i];
    ++want.references;
    if (!r.write) ++want.reads;
    if (const auto p = last.find(r.hash); p != last.end()) {
      const uint32_t bucket = WorkingSetWindows::distance_bucket(distinct_between(refs, p->second, i));
      want.hits[bucket] += 1;  // rate 1: each reference weighs 1
      if (!r.write) want.read_hits[bucket] += 1;
    }
    last[r.hash] = i;
    blocks.insert(r.hash);
    (r.write ? written : read).insert(r.hash);
  }
  EXPECT_EQ(sum.references, want.references) << what;
  EXPECT_EQ(sum.reads, want.reads) << what;
  EXPECT_EQ(sum.weight, static_cast<double>(want.references)) << what;
  EXPECT_EQ(sum.references - sum.block_repeats, blocks.size()) << what;
  EXPECT_EQ(sum.reads - sum.read_repeats, read.size()) << what;
  EXPECT_EQ(sum.references - sum.reads - sum.write_repeats, written.size()) << what;
  EXPECT_EQ(sum.hits, want.hits) << what;
  EXPECT_EQ(sum.read_hits, want.read_hits) << what;
}

TEST(WorkingSetWindows, EachLivePaneSumsToItsOwnReferencesUnsampled) {
  // Rate 1 and a sample larger than the footprint: each pane's shares must add
  // up to the exact counts of the references since its start. Three hours and
  // a half of references in bursts: the 1 h window rolls 14 panes and drops 10.
  WorkingSetWindows windows(kModulus, kModulus, 100'000);
  std::mt19937_64 rng(11);
  const std::vector<uint64_t> hashes = random_hashes(400, 11);
  std::vector<Ref> refs;
  std::vector<tierwise::v1::WorkingSetShares> batches;
  int64_t time = 1'700'000'000 * kSecond + 123;
  for (int i = 0; i < 6000; ++i) {
    time += static_cast<int64_t>(rng() % 4200) * kSecond / 2;  // up to 35 min between references
    const size_t block = std::min<size_t>(rng() % 400, rng() % 400);  // skewed
    const Ref r{hashes[block], rng() % 4 == 0, time};
    refs.push_back(r);
    windows.reference(r.hash, r.write, r.time);
    if (i % 97 == 96) windows.take_shares(&batches.emplace_back());
  }
  windows.take_shares(&batches.emplace_back());
  EXPECT_EQ(batches.back().last_reference_unix_nano(), static_cast<uint64_t>(time));
  EXPECT_EQ(batches.back().sampling_threshold(), kModulus);

  expect_pane(refs, sum_shares(batches, 0), 0, "all");
  for (const uint32_t seconds : WorkingSetWindows::kSlidingSeconds) {
    const int64_t length = int64_t{seconds} * kSecond;
    const int64_t hop = length / WorkingSetWindows::kPanes;
    const std::map<int64_t, PaneSums> shares = sum_shares(batches, seconds);
    int checked = 0;
    for (int64_t start = time / hop * hop; start >= time - length; start -= hop) {
      if (shares.contains(start)) {
        // Shares of panes dropped since do not count: the window holds from its oldest live pane.
        std::map<int64_t, PaneSums> live(shares.lower_bound(time - length), shares.end());
        expect_pane(refs, live, start, std::to_string(seconds) + " s window, pane " + std::to_string(start));
        ++checked;
      }
    }
    EXPECT_GE(checked, 2) << seconds;
  }
}

TEST(WorkingSetWindows, TheBoundedSampleHoldsAtMostSmaxBlocksAndCountsItsEvictions) {
  // 5,000 blocks through a sample of 300: T falls until the sample holds every
  // referenced block below it, and 'all''s blocks (references less repeats,
  // evictions included) are exactly those.
  constexpr uint32_t kMaxSamples = 300;
  WorkingSetWindows windows(kModulus, kModulus, kMaxSamples);
  std::mt19937_64 rng(3);
  const std::vector<uint64_t> hashes = random_hashes(5000, 3);
  std::vector<tierwise::v1::WorkingSetShares> batches;
  std::set<uint64_t> referenced;
  uint64_t last_threshold = kModulus;
  for (int i = 0; i < 40'000; ++i) {
    const uint64_t h = hashes[rng() % hashes.size()];
    referenced.insert(h);
    windows.reference(h, rng() % 2 == 0, 1'700'000'000 * kSecond + int64_t{i} * kSecond);
    if (i % 1000 == 999) {
      windows.take_shares(&batches.emplace_back());
      EXPECT_LE(batches.back().sampling_threshold(), last_threshold);
      last_threshold = batches.back().sampling_threshold();
    }
  }
  const uint64_t threshold = windows.threshold();
  ASSERT_LT(threshold, kModulus);
  const auto held = static_cast<uint64_t>(
      std::count_if(referenced.begin(), referenced.end(), [&](uint64_t h) { return h % kModulus < threshold; }));
  EXPECT_LE(held, kMaxSamples);
  EXPECT_GE(held, kMaxSamples * 9 / 10);
  const PaneSums all = sum_shares(batches, 0).at(0);
  EXPECT_EQ(all.references - all.block_repeats, held);
  // One share per pane, in order.
  for (const auto& b : batches) {
    for (int i = 1; i < b.shares_size(); ++i) {
      const auto& p = b.shares(i - 1);
      const auto& s = b.shares(i);
      EXPECT_TRUE(std::make_pair(p.window_seconds(), p.pane_start_unix_nano()) <
                  std::make_pair(s.window_seconds(), s.pane_start_unix_nano()));
    }
  }
}

TEST(WorkingSetWindows, ABatchersThresholdFallFollowsAndEvicts) {
  WorkingSetWindows windows(kModulus, kModulus, 100'000);
  const int64_t t0 = 1'700'000'000 * kSecond;
  windows.reference(10, false, t0);                 // priority 10
  windows.reference(kModulus / 2 + 5, true, t0 + 1);  // priority P/2 + 5
  windows.lower_threshold(kModulus / 2);             // evicts the second block
  windows.lower_threshold(kModulus);                 // a higher T changes nothing
  EXPECT_EQ(windows.threshold(), kModulus / 2);
  windows.reference(kModulus / 2 + 5, false, t0 + 2);  // outside the sample now: rolls only
  tierwise::v1::WorkingSetShares out;
  windows.take_shares(&out);
  const PaneSums all = sum_shares({out}, 0).at(0);
  EXPECT_EQ(all.references, 2u);
  EXPECT_EQ(all.references - all.block_repeats, 1u);  // the block held
  EXPECT_EQ(all.references - all.reads - all.write_repeats, 0u);  // its write left with it
}

TEST(WorkingSetWindows, APartsSharesAddUpToTheWholeStreamsTakenAtAnyTime) {
  // A host's tier: three volumes' references merged in time order (one a few
  // seconds behind the others' clock), a bounded sample that falls, and one
  // volume's own T falling. Each part takes its shares at its own times; over
  // the parts they add up, pane by pane, to one stream's taken at once.
  constexpr uint32_t kMaxSamples = 300;
  constexpr size_t kParts = 3;
  WorkingSetWindows tier(kModulus, kModulus, kMaxSamples, /*parts=*/0);
  WorkingSetWindows whole(kModulus, kModulus, kMaxSamples);
  for (size_t p = 0; p < kParts; ++p) ASSERT_EQ(tier.add_part(), p);
  std::mt19937_64 rng(17);
  const std::vector<uint64_t> hashes = random_hashes(3000, 17);
  std::vector<tierwise::v1::WorkingSetShares> parts_taken, whole_taken;
  int64_t time = 1'700'000'000 * kSecond;
  for (int i = 0; i < 30'000; ++i) {
    time += static_cast<int64_t>(rng() % 20) * kSecond;
    const size_t part = rng() % kParts;
    const int64_t at = part == 2 ? time - 5 * kSecond : time;  // a lagging clock
    const uint64_t h = hashes[std::min(rng() % hashes.size(), rng() % hashes.size())];
    const bool write = rng() % 3 == 0;
    tier.reference(h, write, at, part);
    whole.reference(h, write, at);
    if (i == 20'000) {
      tier.lower_threshold(tier.threshold() / 2, 1);
      whole.lower_threshold(whole.threshold() / 2);
    }
    if (rng() % 500 == 0) tier.take_shares(&parts_taken.emplace_back(), rng() % kParts);
  }
  for (size_t p = 0; p < kParts; ++p) tier.take_shares(&parts_taken.emplace_back(), p);
  whole.take_shares(&whole_taken.emplace_back());
  ASSERT_LT(tier.threshold(), kModulus / 2);
  EXPECT_EQ(tier.threshold(), whole.threshold());
  for (const auto& t : parts_taken) EXPECT_EQ(t.sample_id(), tier.sample_id());
  for (const uint32_t seconds : {0u, 3600u, 86'400u}) {
    const std::map<int64_t, PaneSums> got = sum_shares(parts_taken, seconds);
    const std::map<int64_t, PaneSums> want = sum_shares(whole_taken, seconds);
    ASSERT_EQ(got.size(), want.size()) << seconds;
    for (const auto& [start, w] : want) {
      const PaneSums& g = got.at(start);
      const std::string what = std::to_string(seconds) + " s window, pane " + std::to_string(start);
      EXPECT_EQ(g.references, w.references) << what;
      EXPECT_EQ(g.reads, w.reads) << what;
      EXPECT_EQ(g.block_repeats, w.block_repeats) << what;
      EXPECT_EQ(g.read_repeats, w.read_repeats) << what;
      EXPECT_EQ(g.write_repeats, w.write_repeats) << what;
      EXPECT_NEAR(g.weight, w.weight, 1e-9 * w.weight) << what;
      ASSERT_EQ(g.hits.size(), w.hits.size()) << what;
      for (const auto& [bucket, weight] : w.hits) EXPECT_NEAR(g.hits.at(bucket), weight, 1e-9 * weight) << what;
    }
  }
  EXPECT_THROW(tier.reference(1, false, time, kParts), std::out_of_range);
}

TEST(WorkingSetWindows, ARestoredSampleGoesOnAsIfThereHadBeenNoRestart) {
  // Half of a stream through one sample, saved and restored; the rest through
  // both the original and the restored: the same shares, the same id. A saved
  // state of another P, s_max, a T above the batcher's, or cut short is refused.
  constexpr uint32_t kMaxSamples = 200;
  WorkingSetWindows original(kModulus, kModulus, kMaxSamples);
  const std::vector<uint64_t> hashes = random_hashes(1000, 5);
  const auto run = [&](WorkingSetWindows& w, int from, int to, uint64_t seed) {
    std::mt19937_64 r(seed);
    for (int i = from; i < to; ++i) {
      w.reference(hashes[r() % hashes.size()], r() % 3 == 0, 1'700'000'000 * kSecond + int64_t{i} * 7 * kSecond);
    }
    tierwise::v1::WorkingSetShares out;
    w.take_shares(&out);
    return out;
  };
  run(original, 0, 3000, 1);
  const std::string saved = original.save();
  const std::optional<WorkingSetWindows> restored =
      WorkingSetWindows::restore(saved, kModulus, kModulus, kMaxSamples);
  ASSERT_TRUE(restored.has_value());
  EXPECT_EQ(restored->save(), saved);
  WorkingSetWindows copy = *restored;
  const tierwise::v1::WorkingSetShares want = run(original, 3000, 6000, 2);
  const tierwise::v1::WorkingSetShares got = run(copy, 3000, 6000, 2);
  EXPECT_EQ(got.SerializeAsString(), want.SerializeAsString());
  EXPECT_EQ(got.sample_id(), want.sample_id());
  EXPECT_GT(want.shares_size(), 4);

  EXPECT_FALSE(WorkingSetWindows::restore(saved, kModulus / 2, kModulus, kMaxSamples)) << "another P";
  EXPECT_FALSE(WorkingSetWindows::restore(saved, kModulus, kModulus, kMaxSamples + 1)) << "another s_max";
  EXPECT_FALSE(WorkingSetWindows::restore(saved, kModulus, original.threshold() - 1, kMaxSamples))
      << "a sample whose T is above the batcher's";
  EXPECT_FALSE(WorkingSetWindows::restore(saved.substr(0, saved.size() - 1), kModulus, kModulus, kMaxSamples));
  EXPECT_FALSE(WorkingSetWindows::restore(saved + "x", kModulus, kModulus, kMaxSamples));
  EXPECT_FALSE(WorkingSetWindows::restore("TWWX" + saved.substr(4), kModulus, kModulus, kMaxSamples));
  std::string flipped = saved;
  flipped[saved.size() / 2] ^= 1;
  EXPECT_FALSE(WorkingSetWindows::restore(flipped, kModulus, kModulus, kMaxSamples)) << "a bit flipped: its CRC-32C";
  EXPECT_NE(WorkingSetWindows(kModulus, kModulus, kMaxSamples).sample_id(), original.sample_id())
      << "a fresh sample draws its own id";
}

TEST(ReferenceBatcher, EveryBatchCarriesItsWorkingSetSharesAtItsThreshold) {
  // A real trace through the bounded batcher: each batch's windows' T is at or
  // below its own and never rises, 'all' counts every reference while the
  // service's sample holds everything the batch's does, and every reference of
  // a batch is counted once by the newest pane of each window.
  KeyedHasher hasher(TenantKey{});
  ShardsSampler sampler(hasher, 0.1);
  std::vector<tierwise::v1::ReferenceBatch> batches;
  ReferenceBatcher batcher("h", "v", sampler, [&](const auto& b) { batches.push_back(b); });
  auto reader = trace::open_trace(tierwise::testing::trace_path("cloudphysics_w_sample.vscsi"));
  trace::IoRecord io;
  while (reader->next(io)) batcher.add(io, io.time_us);
  batcher.flush();
  ASSERT_GT(batches.size(), 1u);
  uint64_t previous = sampler.threshold();
  for (const auto& b : batches) {
    ASSERT_TRUE(b.has_working_set());
    const auto& ws = b.working_set();
    EXPECT_EQ(ws.max_samples(), ReferenceBatcher::kServiceMaxSamples);
    EXPECT_LE(ws.sampling_threshold(), b.sampling_threshold());
    EXPECT_LE(ws.sampling_threshold(), previous);
    previous = ws.sampling_threshold();
    std::map<uint32_t, uint64_t> counted;
    for (const auto& s : ws.shares()) counted[s.window_seconds()] += s.references();
    for (const uint32_t seconds : WorkingSetWindows::kSlidingSeconds) EXPECT_EQ(counted[seconds], counted[0]);
    if (b.references_size() > 0) {
      EXPECT_EQ(ws.last_reference_unix_nano(),
                b.base_time_unix_nano() + b.references(b.references_size() - 1).time_offset_us() * 1000);
      if (ws.sampling_threshold() == b.sampling_threshold()) {
        EXPECT_EQ(counted[0], static_cast<uint64_t>(b.references_size()));
      }
    }
  }
}

}  // namespace
}  // namespace tierwise::sampling
