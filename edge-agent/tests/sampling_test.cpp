// Keyed hashing, the tenant key file, SHARDS sampling and batch packing.
#include <sys/stat.h>

#include <cmath>
#include <numeric>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <gtest/gtest.h>

#include "sampling/batch_id.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/reference_batcher.hpp"
#include "sampling/shards_sampler.hpp"
#include "sampling/tenant_key.hpp"
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

TEST(ShardsSampler, EmitsEveryAccessToASampledBlockOfARealTrace) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 0.01);
  auto reader = trace::open_trace(tierwise::testing::trace_path("cloudphysics_w_sample.vscsi"));
  trace::IoRecord io;
  std::vector<BlockReference> refs;
  uint64_t block_references = 0;
  std::unordered_map<uint64_t, uint64_t> accesses_per_block;
  while (reader->next(io)) {
    size_t before = refs.size();
    sampler.sample(io, refs);
    trace::BlockRange range = trace::blocks_touched(io);
    block_references += range.count();
    for (uint64_t b = range.first; b <= range.last; ++b) {
      if (sampler.keeps(hasher.block_hash(b))) ++accesses_per_block[hasher.block_hash(b)];
    }
    for (size_t i = before; i < refs.size(); ++i) {
      EXPECT_EQ(refs[i].direction, io.direction);
      EXPECT_EQ(refs[i].time_us, io.time_us);
      EXPECT_EQ(refs[i].length_blocks, range.count());
    }
  }
  // Every access to a sampled block is kept (spatial, not temporal, sampling).
  uint64_t expected_refs = 0;
  for (const auto& [hash, count] : accesses_per_block) expected_refs += count;
  EXPECT_EQ(refs.size(), expected_refs);
  // 269,210 distinct blocks at R = 0.01: about 2,692 sampled (4 sd: +-208).
  EXPECT_NEAR(static_cast<double>(accesses_per_block.size()), 2'692.1, 208);
  EXPECT_GT(refs.size(), 0u);
  EXPECT_LT(refs.size(), block_references / 20);
}

TEST(ShardsSampler, RateOneKeepsEveryBlockOfAnIo) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 1.0);
  trace::IoRecord io{123, 4096 * 10 + 512, 65536, trace::Direction::kWrite, -1, "v"};
  std::vector<BlockReference> refs;
  sampler.sample(io, refs);
  ASSERT_EQ(refs.size(), 17u);  // blocks 10..26: unaligned 64 KiB touches 17
  EXPECT_EQ(refs.front().block_hash, hasher.block_hash(10));
  EXPECT_EQ(refs.back().block_hash, hasher.block_hash(26));
  EXPECT_EQ(refs.front().length_blocks, 17u);
}

TEST(ReferenceBatcher, SplitsIntoNumberedBatchesOfAtMostTenThousand) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 0.01);
  std::vector<tierwise::v1::ReferenceBatch> batches;
  ReferenceBatcher batcher("host-a", "vol-a", sampler,
                           [&](const tierwise::v1::ReferenceBatch& b) { batches.push_back(b); });
  constexpr int64_t kStartUs = 1'700'000'000'000'000;
  for (uint64_t i = 0; i < 25'000; ++i) {
    batcher.add({i * 7, i % 3 ? trace::Direction::kRead : trace::Direction::kWrite, 2,
                 kStartUs + static_cast<int64_t>(i / 2)});
  }
  batcher.flush();
  batcher.flush();  // nothing pending: no empty batch

  ASSERT_EQ(batches.size(), 3u);
  EXPECT_EQ(batcher.batches(), 3u);
  std::set<std::string> ids;
  uint64_t index = 0;
  for (size_t n = 0; n < batches.size(); ++n) {
    const auto& b = batches[n];
    EXPECT_EQ(b.references_size(), n < 2 ? 10'000 : 5'000);
    EXPECT_EQ(b.sequence(), n);
    EXPECT_EQ(b.host_id(), "host-a");
    EXPECT_EQ(b.volume_id(), "vol-a");
    EXPECT_EQ(b.sampling_modulus(), 1u << 24);
    EXPECT_EQ(b.sampling_threshold(), 167'772u);
    EXPECT_EQ(b.batch_id().size(), 36u);
    ids.insert(b.batch_id());
    uint64_t base_us = b.base_time_unix_nano() / 1000;
    EXPECT_EQ(base_us, static_cast<uint64_t>(kStartUs) + index / 2);
    for (const auto& r : b.references()) {
      EXPECT_EQ(r.block_hash(), index * 7);
      EXPECT_EQ(r.direction(), index % 3 ? tierwise::v1::DIRECTION_READ : tierwise::v1::DIRECTION_WRITE);
      EXPECT_EQ(r.length_blocks(), 2u);
      EXPECT_EQ(base_us + r.time_offset_us(), static_cast<uint64_t>(kStartUs) + index / 2);
      ++index;
    }
  }
  EXPECT_EQ(ids.size(), 3u);
}

TEST(ReferenceBatcher, RejectsReferencesOutOfTimeOrder) {
  KeyedHasher hasher(sequential_key());
  ShardsSampler sampler(hasher, 0.01);
  ReferenceBatcher batcher("h", "v", sampler, [](const tierwise::v1::ReferenceBatch&) {});
  batcher.add({1, trace::Direction::kRead, 1, 1'000});
  EXPECT_THROW(batcher.add({2, trace::Direction::kRead, 1, 999}), std::invalid_argument);
  EXPECT_THROW(batcher.add({2, trace::Direction::kRead, 1, -5}), std::invalid_argument);
}

TEST(BatchId, IsARandomVersion4Uuid) {
  std::string a = new_batch_id();
  EXPECT_EQ(a.size(), 36u);
  EXPECT_EQ(a[14], '4');
  EXPECT_NE(a, new_batch_id());
}

}  // namespace
}  // namespace tierwise::sampling
