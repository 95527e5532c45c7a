// Keyed hashing, the tenant key file, SHARDS sampling, the distinct-block sketch
// and batch packing.
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <random>
#include <set>
#include <unordered_set>

#include <gtest/gtest.h>

#include "sampling/batch_id.hpp"
#include "sampling/distinct_block_sketch.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/lru_anchor.hpp"
#include "sampling/reference_batcher.hpp"
#include "sampling/shards_sampler.hpp"
#include "sampling/tenant_key.hpp"
#include "sampling/unsampled_blocks.hpp"
#include "list_lru.hpp"
#include "test_support.hpp"
#include "trace/blocks.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::sampling {
namespace {

using tierwise::testing::read_file;
using tierwise::testing::TempFile;

// The key of the SipHash paper's test vectors: bytes 00 01 .. 0f.
TenantKey sequential_key() {
  TenantKey key;
  std::iota(key.bytes.begin(), key.bytes.end(), 0);
  return key;
}

using tierwise::testing::ListLru;

TEST(LruAnchor, HitsExactlyWhenTheListDefinitionDoes) {
  std::mt19937_64 rng(11);
  for (const uint32_t blocks : {1u, 3u, 64u, 1024u}) {
    LruAnchor anchor(blocks);
    ListLru naive(blocks);
    // Skewed reuse over 4 x the size (hits and misses, full-table churn), and
    // block numbers spread over 2^40 so that many collide in the table.
    std::uniform_int_distribution<uint64_t> spread(0, uint64_t{1} << 40);
    std::vector<uint64_t> universe(4 * blocks + 8);
    for (auto& b : universe) b = spread(rng);
    std::geometric_distribution<size_t> pick(2.0 / static_cast<double>(universe.size()));
    uint64_t hits = 0;
    for (int i = 0; i < 200'000; ++i) {
      const uint64_t block = universe[std::min(pick(rng), universe.size() - 1)];
      const bool hit = anchor.reference(block);
      ASSERT_EQ(hit, naive.reference(block)) << "size " << blocks << ", reference " << i;
      hits += hit;
    }
    EXPECT_GT(hits, 0u);
    EXPECT_LT(hits, 200'000u);
  }
  EXPECT_THROW(LruAnchor(0), std::invalid_argument);
  EXPECT_THROW(LruAnchor(65535), std::invalid_argument);
}

TEST(LruAnchor, QueuedReferencesCountTheHitsOfEachSpan) {
  // What the batcher does: add() every reference, take_hits() at each batch's
  // end, keeping the last reference queued when it belongs to the next batch.
  // Spans of 1 to 3,000 references cross the queue's runs (1,024) both ways.
  std::mt19937_64 rng(5);
  LruAnchor queued, immediate;
  std::geometric_distribution<uint64_t> pick(1.0 / 3000);
  std::uniform_int_distribution<size_t> span_length(1, 3000);
  uint64_t expected = 0, carried = 0;
  for (int span = 0; span < 300; ++span) {
    const size_t length = span_length(rng);
    const size_t keep = span % 3 == 0 ? 1 : 0;
    for (size_t i = 0; i < length; ++i) {
      const uint64_t block = pick(rng);
      queued.add(block);
      const bool hit = immediate.reference(block);
      if (keep == 1 && i + 1 == length) {
        carried = hit;
      } else {
        expected += hit;
      }
    }
    ASSERT_EQ(queued.take_hits(keep), expected) << "span " << span;
    expected = carried;
    carried = 0;
  }
  EXPECT_EQ(queued.take_hits(), expected);
  EXPECT_EQ(queued.take_hits(), 0u);
  EXPECT_THROW(queued.take_hits(1), std::invalid_argument) << "nothing is queued";
}

TEST(LruAnchor, TheLastReferenceAddedStaysQueuedWhenTheQueueRuns) {
  // The batcher keeps the reference that lowered T for the next batch
  // (take_hits(1)) right after adding it, also when that add filled the queue:
  // a key whose lowering fell on the 1,024th queued reference stopped
  // sample-refs with "cannot keep 1 of 0 queued references".
  for (size_t adds : {size_t{1024}, size_t{2048}, size_t{1025}}) {
    LruAnchor queued, immediate;
    uint64_t expected = 0;
    for (size_t i = 0; i < adds; ++i) {
      queued.add(i % 100);
      const bool hit = immediate.reference(i % 100);
      if (i + 1 < adds) expected += hit;
    }
    ASSERT_EQ(queued.take_hits(1), expected) << adds << " adds";
  }
}

TEST(SipHash, MatchesThePublishedTestVectors) {
  // Aumasson & Bernstein, "SipHash: a fast short-input PRF" (2012), Appendix
  // A: message 00 01 .. 0e under key 00 .. 0f.
  std::vector<unsigned char> message(15);
  std::iota(message.begin(), message.end(), 0);
  EXPECT_EQ(siphash24(sequential_key(), message), 0xa129ca6149be45e5ULL);
  // Reference implementation vectors.h, entry 0 (empty message):
  // 31 0e 0e dd 47 db 6f 72.
  EXPECT_EQ(siphash24(sequential_key(), {}), 0x726fdb47dd0e0e31ULL);
}

TEST(KeyedHasher, IdsArePseudonymousStableAndDomainSeparated) {
  KeyedHasher a(sequential_key());
  KeyedHasher same(sequential_key());
  KeyedHasher other(parse_tenant_key("ffeeddccbbaa99887766554433221100"));

  EXPECT_EQ(a.volume_id("cbs-1058"), same.volume_id("cbs-1058"));
  EXPECT_EQ(a.volume_id("cbs-1058").size(), 16u);
  EXPECT_NE(a.volume_id("cbs-1058"), other.volume_id("cbs-1058"));
  EXPECT_NE(a.volume_id("cbs-1058"), a.volume_id("cbs-1059"));
  // The same name as a host and as a volume gets different ids.
  EXPECT_NE(a.host_id("db01"), a.volume_id("db01"));
  EXPECT_NE(a.cluster_id("db01"), a.host_id("db01"));
  EXPECT_NE(a.cluster_id("db01"), a.volume_id("db01"));
  EXPECT_EQ(a.cluster_id("prod-a"), same.cluster_id("prod-a"));
  EXPECT_EQ(a.cluster_id("prod-a").size(), 16u);
  EXPECT_EQ(a.block_hash(42), same.block_hash(42));
  EXPECT_NE(a.block_hash(42), other.block_hash(42));
  EXPECT_NE(a.block_hash(42), a.block_hash(43));
}

TEST(TenantKey, ParsesHexAndRejectsBadKeys) {
  TenantKey key = parse_tenant_key("000102030405060708090A0B0C0D0E0F");
  EXPECT_EQ(key.bytes, sequential_key().bytes);
  EXPECT_EQ(format_tenant_key(key), "000102030405060708090a0b0c0d0e0f");
  EXPECT_THROW(parse_tenant_key("0001"), std::invalid_argument);
  EXPECT_THROW(parse_tenant_key("000102030405060708090a0b0c0d0e0g"), std::invalid_argument);
}

TEST(TenantKey, KeyFileIsCreatedOnceWithOwnerOnlyAccess) {
  TempFile file("agent.key");
  std::filesystem::remove(file.path());
  bool created = false;
  TenantKey first = load_or_create_key_file(file.path(), &created);
  EXPECT_TRUE(created);
  struct stat info {};
  ASSERT_EQ(::stat(file.path().c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600);
  EXPECT_EQ(read_file(file.path()), format_tenant_key(first) + "\n");

  TenantKey again = load_or_create_key_file(file.path(), &created);
  EXPECT_FALSE(created);
  EXPECT_EQ(again.bytes, first.bytes);

  TempFile bad("bad.key", "not a key\n");
  try {
    load_or_create_key_file(bad.path());
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad.path()), std::string::npos);
  }
}

TEST(ShardsSampler, ThresholdFollowsTheRate) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 0.01);
  EXPECT_EQ(sampler.modulus(), 1u << 24);
  EXPECT_EQ(sampler.threshold(), 167'772u);  // round(0.01 * 2^24)
  for (double bad : {0.0, -0.5, 1.5, 1e-9}) {
    EXPECT_THROW(ShardsSampler(hasher, bad), std::invalid_argument) << bad;
  }
}

TEST(ShardsSampler, SamplesTheRequestedShareOfBlocks) {
  KeyedHasher hasher(parse_tenant_key("5f1c0e9a7b3d2c4e6a8b0d1f3e5c7a9b"));
  constexpr uint64_t kBlocks = 1'000'000;
  for (double rate : {0.01, 0.1}) {
    ShardsSampler sampler(hasher, rate);
    uint64_t kept = 0;
    for (uint64_t block = 0; block < kBlocks; ++block) kept += sampler.keeps(hasher.block_hash(block));
    double expected = rate * kBlocks;
    // Binomial: 4 standard deviations.
    EXPECT_NEAR(static_cast<double>(kept), expected, 4 * std::sqrt(expected * (1 - rate))) << rate;
  }
}

// Every batch of one batcher, collected.
struct Collected {
  std::vector<tierwise::v1::ReferenceBatch> batches;
  ReferenceBatcher::Sink sink() {
    return [this](const tierwise::v1::ReferenceBatch& b) { batches.push_back(b); };
  }
};

// The registers that an element-wise maximum over the batches' updates gives.
std::vector<uint8_t> merged_registers(const std::vector<tierwise::v1::ReferenceBatch>& batches,
                                      unsigned precision) {
  std::vector<uint8_t> registers(size_t{1} << precision, 0);
  for (const auto& b : batches) {
    EXPECT_EQ(b.distinct_blocks_hll_precision(), precision);
    uint32_t previous_index = 0;
    for (int i = 0; i < b.distinct_blocks_hll_updates_size(); ++i) {
      uint32_t update = b.distinct_blocks_hll_updates(i);
      uint32_t index = update >> 8;
      if (i > 0) {
        EXPECT_GT(index, previous_index) << "updates ascend by index";
      }
      previous_index = index;
      EXPECT_GT(update & 0xFF, registers[index]) << "an update only ever raises a register";
      registers[index] = static_cast<uint8_t>(update & 0xFF);
    }
  }
  return registers;
}

TEST(ReferenceBatcher, ShipsEveryAccessToASampledBlockAndCountsAllOfARealTrace) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 0.01);
  Collected out;
  ReferenceBatcher batcher("h", "v", sampler, out.sink());
  auto reader = trace::open_trace(tierwise::testing::trace_path("cloudphysics_w_sample.vscsi"));
  trace::IoRecord io;
  struct Expected {
    uint64_t hash;
    trace::Direction direction;
    uint64_t length_blocks;
    int64_t time_us;
  };
  std::vector<Expected> expected;
  uint64_t block_references = 0;
  std::set<uint64_t> sampled_blocks;
  std::vector<uint8_t> registers(size_t{1} << DistinctBlockSketch::kDefaultPrecision, 0);
  ListLru anchor(LruAnchor::kDefaultBlocks);
  uint64_t anchor_hits = 0;
  while (reader->next(io)) {
    trace::BlockRange range = trace::blocks_touched(io);
    block_references += range.count();
    for (uint64_t b = range.first; b <= range.last; ++b) {
      anchor_hits += anchor.reference(b);
      uint64_t hash = hasher.block_hash(b);
      uint8_t& r = registers[DistinctBlockSketch::register_index(hash, DistinctBlockSketch::kDefaultPrecision)];
      r = std::max(r, DistinctBlockSketch::register_value(hash, DistinctBlockSketch::kDefaultPrecision));
      if (!sampler.keeps(hash)) continue;
      expected.push_back({hash, io.direction, range.count(), io.time_us});
      sampled_blocks.insert(hash);
    }
    batcher.add(io, io.time_us);
  }
  batcher.flush();

  // Every access to a sampled block is kept (spatial, not temporal, sampling), in order.
  size_t index = 0;
  uint64_t considered = 0;
  for (const auto& b : out.batches) {
    EXPECT_GE(b.considered_references(), static_cast<uint64_t>(b.references_size()));
    considered += b.considered_references();
    for (const auto& r : b.references()) {
      ASSERT_LT(index, expected.size());
      const Expected& want = expected[index++];
      ASSERT_EQ(r.block_hash(), want.hash);
      ASSERT_EQ(r.direction(), want.direction == trace::Direction::kRead ? tierwise::v1::DIRECTION_READ
                                                                         : tierwise::v1::DIRECTION_WRITE);
      ASSERT_EQ(r.length_blocks(), want.length_blocks);
      ASSERT_EQ(b.base_time_unix_nano() / 1000 + r.time_offset_us(), static_cast<uint64_t>(want.time_us));
    }
  }
  EXPECT_EQ(index, expected.size());
  // N: all 1,141,869 block references of the trace, sampled or not.
  EXPECT_EQ(considered, block_references);
  // The hits of an exact 4 MiB LRU cache over every reference, sampled or not.
  uint64_t shipped_anchor_hits = 0;
  for (const auto& b : out.batches) {
    EXPECT_EQ(b.lru_anchor_blocks(), LruAnchor::kDefaultBlocks);
    EXPECT_LE(b.lru_anchor_hits(), b.considered_references());
    shipped_anchor_hits += b.lru_anchor_hits();
  }
  EXPECT_EQ(shipped_anchor_hits, anchor_hits);
  EXPECT_GT(anchor_hits, block_references / 20);  // 9.9 % of the references hit 4 MiB
  EXPECT_EQ(block_references, 1'141'869u);
  // The shipped sketch is the sketch of every block of the trace.
  EXPECT_EQ(merged_registers(out.batches, DistinctBlockSketch::kDefaultPrecision), registers);
  // 269,210 distinct blocks at R = 0.01: about 2,692 sampled (4 sd: +-208).
  EXPECT_NEAR(static_cast<double>(sampled_blocks.size()), 2'692.1, 208);
  EXPECT_LT(expected.size(), block_references / 20);
}

TEST(ReferenceBatcher, RateOneKeepsEveryBlockOfAnIo) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 1.0);
  Collected out;
  ReferenceBatcher batcher("h", "v", sampler, out.sink());
  trace::IoRecord io{123, 4096 * 10 + 512, 65536, trace::Direction::kWrite, -1, "v"};
  EXPECT_EQ(batcher.add(io, 123), 17u);  // blocks 10..26: unaligned 64 KiB touches 17
  batcher.flush();
  ASSERT_EQ(out.batches.size(), 1u);
  const auto& b = out.batches[0];
  ASSERT_EQ(b.references_size(), 17);
  EXPECT_EQ(b.considered_references(), 17u);
  EXPECT_EQ(b.references(0).block_hash(), hasher.block_hash(10));
  EXPECT_EQ(b.references(16).block_hash(), hasher.block_hash(26));
  EXPECT_EQ(b.references(0).length_blocks(), 17u);
  EXPECT_EQ(b.references(0).direction(), tierwise::v1::DIRECTION_WRITE);
}

TEST(ReferenceBatcher, RecordsTheClusterIdOnceSet) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 1.0);
  Collected out;
  ReferenceBatcher batcher("h", "v", sampler, out.sink());
  trace::IoRecord io{123, 0, 4096, trace::Direction::kRead, -1, "v"};
  batcher.add(io, 123);
  batcher.flush();
  batcher.set_cluster_id(hasher.cluster_id("prod-a"));
  batcher.add(io, 124);
  batcher.flush();
  ASSERT_EQ(out.batches.size(), 2u);
  EXPECT_EQ(out.batches[0].cluster_id(), "") << "no cluster: the field stays empty";
  EXPECT_EQ(out.batches[1].cluster_id(), hasher.cluster_id("prod-a"));
}

TEST(ReferenceBatcher, SplitsIntoNumberedBatchesOfAtMostTenThousand) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 1.0);
  Collected out;
  // A bound above the 25,000-block footprint, so T never falls and every
  // reference is kept (the default, 10,923, would lower T: the fall is
  // BoundedSampleLowersTheThresholdAtBatchBoundaries's).
  constexpr size_t kAboveTheFootprint = 32'768;
  ReferenceBatcher batcher("host-a", "vol-a", sampler, out.sink(), DistinctBlockSketch::kDefaultPrecision,
                           kAboveTheFootprint);
  constexpr int64_t kStartUs = 1'700'000'000'000'000;
  // 12,500 I/Os of 2 blocks (block 2i and 2i + 1): 25,000 references.
  for (uint64_t i = 0; i < 12'500; ++i) {
    trace::IoRecord io{0, i * 8192, 8192, i % 3 ? trace::Direction::kRead : trace::Direction::kWrite, -1, ""};
    batcher.add(io, kStartUs + static_cast<int64_t>(i));
  }
  batcher.flush();
  batcher.flush();  // nothing pending: no empty batch

  ASSERT_EQ(out.batches.size(), 3u);
  EXPECT_EQ(batcher.batches(), 3u);
  std::set<std::string> ids;
  uint64_t block = 0;
  for (size_t n = 0; n < out.batches.size(); ++n) {
    const auto& b = out.batches[n];
    EXPECT_EQ(b.references_size(), n < 2 ? 10'000 : 5'000);
    EXPECT_EQ(b.considered_references(), static_cast<uint64_t>(b.references_size()));
    EXPECT_EQ(b.sequence(), n);
    EXPECT_EQ(b.host_id(), "host-a");
    EXPECT_EQ(b.volume_id(), "vol-a");
    EXPECT_EQ(b.sampling_modulus(), 1u << 24);
    EXPECT_EQ(b.sampling_threshold(), 1u << 24);
    EXPECT_EQ(b.batch_id().size(), 36u);
    ids.insert(b.batch_id());
    uint64_t base_us = b.base_time_unix_nano() / 1000;
    EXPECT_EQ(base_us, static_cast<uint64_t>(kStartUs) + block / 2);
    for (const auto& r : b.references()) {
      uint64_t io_index = block / 2;
      EXPECT_EQ(r.block_hash(), hasher.block_hash(block));
      EXPECT_EQ(r.direction(), io_index % 3 ? tierwise::v1::DIRECTION_READ : tierwise::v1::DIRECTION_WRITE);
      EXPECT_EQ(r.length_blocks(), 2u);
      EXPECT_EQ(base_us + r.time_offset_us(), static_cast<uint64_t>(kStartUs) + io_index);
      ++block;
    }
  }
  EXPECT_EQ(ids.size(), 3u);
}

TEST(ReferenceBatcher, CountsUnsampledReferencesUpToTheLastSampledOneAndFlushesTheTail) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 0.01);
  uint64_t sampled = 0;
  while (!sampler.keeps(hasher.block_hash(sampled))) ++sampled;
  uint64_t unsampled = sampled + 1;
  while (sampler.keeps(hasher.block_hash(unsampled))) ++unsampled;
  auto io = [](uint64_t block) { return trace::IoRecord{0, block * 4096, 4096, trace::Direction::kRead, -1, ""}; };

  Collected out;
  ReferenceBatcher batcher("h", "v", sampler, out.sink());
  batcher.add(io(unsampled), 10);  // opens the batch: its start
  batcher.add(io(unsampled), 11);
  EXPECT_EQ(batcher.add(io(sampled), 12), 1u);
  batcher.add(io(unsampled), 13);
  batcher.flush();
  batcher.add(io(unsampled), 14);  // after the last sampled reference
  batcher.flush();
  batcher.flush();

  ASSERT_EQ(out.batches.size(), 2u);
  EXPECT_EQ(out.batches[0].considered_references(), 4u);
  EXPECT_EQ(out.batches[0].base_time_unix_nano(), 10'000u);
  ASSERT_EQ(out.batches[0].references_size(), 1);
  EXPECT_EQ(out.batches[0].references(0).time_offset_us(), 2u);
  // Two distinct blocks in the first span, nothing new in the second.
  EXPECT_EQ(out.batches[0].distinct_blocks_hll_updates_size(),
            DistinctBlockSketch::register_index(hasher.block_hash(sampled), 16) ==
                    DistinctBlockSketch::register_index(hasher.block_hash(unsampled), 16)
                ? 1
                : 2);
  EXPECT_EQ(out.batches[1].references_size(), 0);
  EXPECT_EQ(out.batches[1].considered_references(), 1u);
  EXPECT_EQ(out.batches[1].base_time_unix_nano(), 14'000u);
  EXPECT_EQ(out.batches[1].distinct_blocks_hll_updates_size(), 0);
  EXPECT_EQ(out.batches[1].sequence(), 1u);
}

TEST(ReferenceBatcher, TheLruAnchorCanBeTurnedOff) {
  // The same stream with and without the anchor: the same batches, but only
  // the first carry its hits (each block is read twice in a row: half hit).
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 0.5);
  Collected with, without;
  ReferenceBatcher on("h", "v", sampler, with.sink());
  ReferenceBatcher off("h", "v", sampler, without.sink(), DistinctBlockSketch::kDefaultPrecision,
                       ReferenceBatcher::kDefaultMaxSampledBlocks, /*lru_anchor=*/false);
  for (uint64_t block = 0; block < 30'000; ++block) {
    for (int twice = 0; twice < 2; ++twice) {
      const trace::IoRecord io{0, block * 4096, 4096, trace::Direction::kRead, -1, ""};
      on.add(io, static_cast<int64_t>(block));
      off.add(io, static_cast<int64_t>(block));
    }
  }
  on.flush();
  off.flush();
  ASSERT_EQ(with.batches.size(), without.batches.size());
  ASSERT_GT(with.batches.size(), 1u);
  uint64_t hits = 0;
  for (size_t i = 0; i < with.batches.size(); ++i) {
    EXPECT_EQ(without.batches[i].lru_anchor_blocks(), 0u);
    EXPECT_EQ(without.batches[i].lru_anchor_hits(), 0u);
    EXPECT_EQ(with.batches[i].lru_anchor_blocks(), LruAnchor::kDefaultBlocks);
    hits += with.batches[i].lru_anchor_hits();
    tierwise::v1::ReferenceBatch anchorless = with.batches[i];
    anchorless.clear_lru_anchor_hits();
    anchorless.clear_lru_anchor_blocks();
    anchorless.set_batch_id(without.batches[i].batch_id());  // random per batch
    anchorless.mutable_working_set()->set_sample_id(without.batches[i].working_set().sample_id());  // per sample
    EXPECT_TRUE(anchorless.SerializeAsString() == without.batches[i].SerializeAsString()) << "batch " << i;
  }
  EXPECT_EQ(hits, 30'000u);
}

TEST(ReferenceBatcher, BoundedSampleLowersTheThresholdAtBatchBoundaries) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 1.0);
  Collected out;
  constexpr size_t kMax = 1000;
  ReferenceBatcher batcher("h", "v", sampler, out.sink(), DistinctBlockSketch::kDefaultPrecision, kMax);
  // 20,000 distinct blocks, each read twice in a row: a footprint 20 x the bound.
  for (uint64_t block = 0; block < 20'000; ++block) {
    for (int twice = 0; twice < 2; ++twice) {
      batcher.add(trace::IoRecord{0, block * 4096, 4096, trace::Direction::kRead, -1, ""},
                  static_cast<int64_t>(block));
    }
  }
  batcher.flush();
  // T fell to keep between 3/4 and 1 x 1,000 of the 20,000 blocks: R about 0.04 to 0.05.
  const double rate = static_cast<double>(batcher.threshold()) / sampler.modulus();
  EXPECT_GT(rate, 0.75 * kMax / 20'000 * 0.8);
  EXPECT_LT(rate, 1.0 * kMax / 20'000 * 1.2);
  uint64_t considered = 0;
  uint64_t previous_threshold = sampler.threshold();
  std::set<uint64_t> sampled_blocks;
  for (const auto& b : out.batches) {
    considered += b.considered_references();
    EXPECT_LE(b.sampling_threshold(), previous_threshold) << "T never rises";
    previous_threshold = b.sampling_threshold();
    for (const auto& r : b.references()) {
      EXPECT_LT(r.block_hash() % sampler.modulus(), b.sampling_threshold()) << "every reference is in its batch's sample";
    }
  }
  EXPECT_EQ(considered, 40'000u) << "N counts every reference exactly once across the cuts";
  uint64_t anchor_hits = 0;
  for (const auto& b : out.batches) {
    EXPECT_LE(b.lru_anchor_hits(), b.considered_references());
    anchor_hits += b.lru_anchor_hits();
  }
  EXPECT_EQ(anchor_hits, 20'000u) << "each second read hits the LRU anchor, counted once across the cuts";
  EXPECT_EQ(out.batches.back().sampling_threshold(), batcher.threshold());
  // Each block still in the final sample came with both of its references.
  uint64_t final_refs = 0;
  for (const auto& b : out.batches) {
    for (const auto& r : b.references()) final_refs += r.block_hash() % sampler.modulus() < batcher.threshold();
  }
  EXPECT_EQ(final_refs % 2, 0u);
  EXPECT_GE(final_refs / 2, 3 * kMax / 4);
  EXPECT_LE(final_refs / 2, kMax + 5);  // blocks sharing a priority count once
}

// The default bound against the service's fixed-size sample (s_max): each time
// T falls, the blocks seen so far below the new T, which the service keeps
// (the 8,192 with the smallest priorities), are at least s_max, so the service's
// sample is always part of the agent's; and the agent never holds more than
// its bound.
TEST(ReferenceBatcher, TheDefaultBoundStillHoldsTheServicesSampleWhenTFalls) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 1.0);
  Collected out;
  ReferenceBatcher batcher("h", "v", sampler, out.sink());
  // 200,000 distinct blocks, one I/O each at time = block: T falls about
  // log_{4/3}(200,000 / 10,923) = 10 times.
  constexpr uint64_t kBlocks = 200'000;
  for (uint64_t block = 0; block < kBlocks; ++block) {
    batcher.add(trace::IoRecord{0, block * 4096, 4096, trace::Direction::kRead, -1, ""},
                static_cast<int64_t>(block));
  }
  batcher.flush();
  // (time, priority) of every shipped reference.
  std::vector<std::pair<uint64_t, uint64_t>> shipped;
  for (const auto& b : out.batches) {
    for (const auto& r : b.references()) {
      shipped.emplace_back(b.base_time_unix_nano() / 1000 + r.time_offset_us(), r.block_hash() % sampler.modulus());
    }
  }
  // Distinct priorities below `threshold` among the references up to time `until`.
  const auto sample_below = [&](uint64_t threshold, uint64_t until) {
    std::set<uint64_t> priorities;
    for (const auto& [time, priority] : shipped) {
      if (time <= until && priority < threshold) priorities.insert(priority);
    }
    return priorities.size();
  };
  int falls = 0;
  for (size_t i = 1; i < out.batches.size(); ++i) {
    const auto& b = out.batches[i];
    if (b.sampling_threshold() == out.batches[i - 1].sampling_threshold()) continue;
    ++falls;
    // The I/O that made T fall opens the batch (time = its base time).
    const size_t held = sample_below(b.sampling_threshold(), b.base_time_unix_nano() / 1000);
    EXPECT_GE(held, ReferenceBatcher::kServiceMaxSamples) << "batch " << i;
    EXPECT_LE(held, ReferenceBatcher::kDefaultMaxSampledBlocks) << "batch " << i;
  }
  EXPECT_GE(falls, 8);
  const size_t final_sample = sample_below(batcher.threshold(), kBlocks);
  EXPECT_GE(final_sample, ReferenceBatcher::kServiceMaxSamples);
  EXPECT_LE(final_sample, ReferenceBatcher::kDefaultMaxSampledBlocks);
}

// The batcher against the definition of bounded SHARDS, recorded reference by
// reference with libsodium's SipHash of every block (no inline hash, no
// skipped blocks): a stream with reuse over 6,000 blocks, I/Os of 1-3 blocks,
// the sample bounded at 1,000. Every kept reference, in order, with the T of
// its batch, N and the sketch must be the definition's.
TEST(ReferenceBatcher, MatchesTheBoundedShardsDefinitionOnAFixedStream) {
  const TenantKey key = parse_tenant_key("5f1c0e9a7b3d2c4e6a8b0d1f3e5c7a9b");
  KeyedHasher hasher(key);
  ShardsSampler sampler(hasher, 1.0);
  Collected out;
  constexpr size_t kMax = 1000;
  ReferenceBatcher batcher("h", "v", sampler, out.sink(), DistinctBlockSketch::kDefaultPrecision, kMax);

  const uint64_t p = sampler.modulus();
  uint64_t threshold = sampler.threshold();
  std::set<uint64_t> priorities;
  std::vector<std::pair<uint64_t, uint64_t>> want;  // (H, T) of each kept reference
  std::vector<uint8_t> registers(size_t{1} << DistinctBlockSketch::kDefaultPrecision, 0);
  uint64_t references = 0;
  std::mt19937_64 rng(11);
  for (int64_t t = 0; t < 30'000; ++t) {
    // Mostly a hot tenth of the blocks, so sampled blocks come back.
    const uint64_t first = rng() % 4 == 0 ? rng() % 6000 : rng() % 600;
    const auto length = static_cast<uint32_t>(4096 * (1 + rng() % 3));
    const trace::IoRecord io{t, first * 4096, length, trace::Direction::kRead, -1, ""};
    const trace::BlockRange range = trace::blocks_touched(io);
    for (uint64_t b = range.first; b <= range.last; ++b) {
      ++references;
      std::array<unsigned char, 14> message{'b', 'l', 'o', 'c', 'k', ':'};
      for (int i = 0; i < 8; ++i) message[6 + i] = static_cast<unsigned char>(b >> (8 * i));
      const uint64_t h = siphash24(key, message);
      uint8_t& r = registers[DistinctBlockSketch::register_index(h, DistinctBlockSketch::kDefaultPrecision)];
      r = std::max(r, DistinctBlockSketch::register_value(h, DistinctBlockSketch::kDefaultPrecision));
      if (h % p >= threshold) continue;
      if (priorities.insert(h % p).second && priorities.size() > kMax) {
        const uint64_t lowered = *std::next(priorities.begin(), kMax - kMax / 4);
        priorities.erase(priorities.find(lowered), priorities.end());
        threshold = lowered;
        if (h % p >= threshold) continue;
      }
      want.emplace_back(h, threshold);
    }
    batcher.add(io, t);
  }
  batcher.flush();

  std::vector<std::pair<uint64_t, uint64_t>> got;
  uint64_t considered = 0;
  for (const auto& b : out.batches) {
    considered += b.considered_references();
    for (const auto& r : b.references()) got.emplace_back(r.block_hash(), b.sampling_threshold());
  }
  EXPECT_LT(threshold, p / 4) << "the bound lowered T several times";
  EXPECT_GT(want.size(), 5'000u);
  EXPECT_EQ(got, want);
  EXPECT_EQ(batcher.threshold(), threshold);
  EXPECT_EQ(considered, references);
  EXPECT_EQ(merged_registers(out.batches, DistinctBlockSketch::kDefaultPrecision), registers);
}

TEST(ReferenceBatcher, RejectsIosOutOfTimeOrder) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 0.01);
  ReferenceBatcher batcher("h", "v", sampler, [](const tierwise::v1::ReferenceBatch&) {});
  trace::IoRecord io{0, 0, 4096, trace::Direction::kRead, -1, ""};
  batcher.add(io, 1'000);
  EXPECT_THROW(batcher.add(io, 999), std::invalid_argument);
  EXPECT_THROW(batcher.add(io, -5), std::invalid_argument);
  EXPECT_THROW(ReferenceBatcher("h", "v", sampler, {}, 3), std::invalid_argument);
}

TEST(UnsampledBlocks, RemembersMarkedBlocksOnly) {
  UnsampledBlocks blocks;
  const uint64_t marked[] = {0, 63, 64, 32'767, 32'768, uint64_t{1} << 30, uint64_t{1} << 33};
  for (const uint64_t b : marked) blocks.mark(b);
  for (const uint64_t b : marked) EXPECT_TRUE(blocks.contains(b)) << b;
  for (const uint64_t b : {uint64_t{1}, uint64_t{62}, uint64_t{65}, uint64_t{32'769}, (uint64_t{1} << 30) + 1}) {
    EXPECT_FALSE(blocks.contains(b)) << b;
  }
  // Beyond 2^36 blocks nothing is remembered (the block is hashed each time).
  blocks.mark(uint64_t{1} << 36);
  EXPECT_FALSE(blocks.contains(uint64_t{1} << 36));
}

TEST(DistinctBlockSketch, RegistersReadTheBitsAboveTheSamplingBits) {
  constexpr unsigned p = 16;
  // Index: the top 16 bits. Value: 1 + leading zeros of bits 47..24; 25 when all are zero.
  EXPECT_EQ(DistinctBlockSketch::register_index(0xABCD'0000'0000'0000u, p), 0xABCDu);
  EXPECT_EQ(DistinctBlockSketch::register_value(0xABCD'0000'0000'0000u, p), 25);
  EXPECT_EQ(DistinctBlockSketch::register_value(0x0000'8000'0000'0000u, p), 1);
  EXPECT_EQ(DistinctBlockSketch::register_value(0x0000'0000'0100'0000u, p), 24);  // bit 24 only
  // The 24 sampling bits do not count.
  EXPECT_EQ(DistinctBlockSketch::register_value(0x0000'0000'00FF'FFFFu, p), 25);
  EXPECT_EQ(DistinctBlockSketch::register_index(0x0000'0000'00FF'FFFFu, p), 0u);
  EXPECT_EQ(DistinctBlockSketch::register_value(0x0000'0000'0100'0000u, 4), 36);
  EXPECT_THROW(DistinctBlockSketch(19), std::invalid_argument);
}

TEST(DistinctBlockSketch, ReportsEachRiseOnceAcrossTheSparseToDenseSwitch) {
  constexpr unsigned p = 10;  // dense past 64 registers
  DistinctBlockSketch sketch(p);
  std::vector<uint8_t> truth(1u << p, 0);
  std::vector<uint8_t> merged(1u << p, 0);
  std::mt19937_64 random(42);
  std::vector<uint32_t> updates;
  for (int round = 0; round < 6; ++round) {
    // 2, 10, 40, 160, ... hashes: the sketch turns dense (past 64 registers) in round 3.
    for (int i = 0; i < (10 << (2 * round)) / 4; ++i) {
      uint64_t h = random();
      sketch.add(h);
      uint8_t& t = truth[DistinctBlockSketch::register_index(h, p)];
      t = std::max(t, DistinctBlockSketch::register_value(h, p));
    }
    updates.clear();
    sketch.take_updates(updates);
    EXPECT_TRUE(std::is_sorted(updates.begin(), updates.end())) << round;
    for (uint32_t u : updates) {
      EXPECT_GT(u & 0xFF, merged[u >> 8]) << round;
      merged[u >> 8] = static_cast<uint8_t>(u & 0xFF);
    }
    EXPECT_EQ(merged, truth) << round;
  }
  updates.clear();
  sketch.take_updates(updates);
  EXPECT_TRUE(updates.empty());
}

TEST(BatchId, IsARandomVersion4Uuid) {
  std::string a = new_batch_id();
  EXPECT_EQ(a.size(), 36u);
  EXPECT_EQ(a[14], '4');
  EXPECT_NE(a, new_batch_id());
}

}  // namespace
}  // namespace tierwise::sampling
