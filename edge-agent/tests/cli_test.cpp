// tierwise-agent as a user runs it: output, exit codes, and the sample-refs
// stream read back the way the Java side reads it (parseDelimitedFrom).
#include <sys/wait.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/version.hpp"
#include "export_http_receiver.hpp"
#include "serve/byte_size.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/shards_sampler.hpp"
#include "test_support.hpp"
#include "tierwise/v1/reference_batch.pb.h"
#include "trace/blocks.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::cli {
namespace {

using serve::parse_byte_size;
using tierwise::testing::read_file;
using tierwise::testing::TempFile;
using tierwise::testing::trace_path;

constexpr const char* kKey = "000102030405060708090a0b0c0d0e0f";

struct AgentRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

AgentRun run_agent(const std::string& args) {
  TempFile out("stdout.txt");
  TempFile err("stderr.txt");
  // A command that needs the tenant key and is given none creates it here, not at the
  // installed default (/etc/tierwise/anonymization.key).
  TempFile key("agent.key");
  std::string command = "TIERWISE_AGENT_KEY_FILE=" + key.path() + " " + std::string(TIERWISE_AGENT_BINARY) + " " + args +
                        " >" + out.path() + " 2>" + err.path();
  int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_file(out.path()), read_file(err.path())};
}

std::vector<tierwise::v1::ReferenceBatch> read_batches(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  google::protobuf::io::IstreamInputStream stream(&in);
  std::vector<tierwise::v1::ReferenceBatch> batches;
  while (true) {
    tierwise::v1::ReferenceBatch batch;
    bool clean_eof = false;
    if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&batch, &stream, &clean_eof)) {
      EXPECT_TRUE(clean_eof) << "corrupt delimited stream in " << path;
      break;
    }
    batches.push_back(std::move(batch));
  }
  return batches;
}

TEST(CliInspect, PrintsTheCloudPhysicsSummaryAsJson) {
  AgentRun run = run_agent("inspect --json " + trace_path("cloudphysics_w_sample.vscsi"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["format"], "vscsi");
  EXPECT_EQ(j["records"], 113'872);
  EXPECT_EQ(j["reads"], 46'974);
  EXPECT_EQ(j["writes"], 66'898);
  EXPECT_EQ(j["distinct_blocks"], 269'210);
  EXPECT_NEAR(j["wss_mib"].get<double>(), 1'051.6, 0.05);
  EXPECT_NEAR(j["time_span_s"].get<double>(), 7'200.09, 0.005);
  EXPECT_EQ(j["volume_count"], 1);
  EXPECT_EQ(j["volumes"][0]["name"], "cloudphysics_w_sample");
  EXPECT_EQ(j["malformed_records"], 0);
}

TEST(CliInspect, TextOutputNamesTheFigures) {
  AgentRun run = run_agent("inspect " + trace_path("msr_hm_0_sample1000.csv"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("records       1000 (reads 508, writes 492)"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("time span     127.23 s"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("hm_0"), std::string::npos) << run.out;
}

TEST(CliExitCodes, MalformedRecordsGiveThreeAfterTheOutput) {
  TempFile csv("broken.csv",
               "version,time,op,size,lbn\n1,10,28,4096,8\n1,11,2a,oops,8\n1,12,2a,4096,16\n");
  AgentRun run = run_agent("inspect --json " + csv.path());
  EXPECT_EQ(run.exit_code, 3);
  EXPECT_EQ(nlohmann::json::parse(run.out)["records"], 2);
  EXPECT_NE(run.err.find(csv.path() + ":3: field 'size': 'oops' is not an unsigned integer"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("1 malformed record(s) skipped"), std::string::npos) << run.err;
}

TEST(CliExitCodes, UsageErrorsAndUnreadableTracesGiveTwo) {
  TempFile notes("notes.txt", "just some text\n");
  TempFile bad_key("bad.key", "0123\n");
  std::string tencent = trace_path("tencent_cbs_sample50k.csv.bz2");
  std::string msr = trace_path("msr_hm_0_sample1000.csv");
  for (const std::string& args :
       {std::string("inspect /nonexistent/trace.csv"), "inspect " + notes.path(),
        "inspect --format nosuch " + msr, "mrc --exact " + tencent, "mrc " + msr,
        "mrc --exact --sizes 16XB " + msr, "mrc --exact --volume cbs-1 " + msr,
        "sample-refs --key 1234 --out /dev/null " + msr,
        "sample-refs --key-file " + bad_key.path() + " --out /dev/null " + msr,
        "block-refs " + tencent, "replay --dry-run --eviction mru " + msr,
        "replay --dry-run --sequential-cutoff fast " + msr,
        std::string("frobnicate")}) {
    AgentRun run = run_agent(args);
    EXPECT_EQ(run.exit_code, 2) << args << "\n" << run.err;
    EXPECT_FALSE(run.err.empty()) << args;
  }
  AgentRun multi = run_agent("mrc --exact " + tencent);
  EXPECT_NE(multi.err.find("choose one with --volume"), std::string::npos) << multi.err;
  AgentRun policy = run_agent("replay --dry-run --eviction mru " + msr);
  EXPECT_NE(policy.err.find("--eviction"), std::string::npos) << policy.err;
}

TEST(CliBlockRefs, PrintsEveryBlockReferenceOfTheVolume) {
  const std::string msr = trace_path("msr_hm_0_sample1000.csv");
  AgentRun refs = run_agent("block-refs " + msr);
  ASSERT_EQ(refs.exit_code, 0) << refs.err;
  std::istringstream lines(refs.out);
  std::set<uint64_t> distinct;
  uint64_t count = 0;
  for (uint64_t block; lines >> block; ++count) distinct.insert(block);
  AgentRun inspect = run_agent("inspect --json " + msr);
  const nlohmann::json stats = nlohmann::json::parse(inspect.out);
  EXPECT_EQ(distinct.size(), stats["distinct_blocks"].get<uint64_t>());
  // Every byte moved lies in a referenced block: at least bytes / 4 KiB references.
  EXPECT_GE(count * 4096, stats["bytes"].get<uint64_t>());
  AgentRun one = run_agent("block-refs --volume cbs-1058 " + trace_path("tencent_cbs_sample50k.csv.bz2"));
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_FALSE(one.out.empty());
}

TEST(CliHelp, ListsTheSubcommands) {
  AgentRun run = run_agent("--help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* name : {"inspect", "mrc", "sample-refs", "Exit codes"}) {
    EXPECT_NE(run.out.find(name), std::string::npos) << name;
  }
}

TEST(CliMrc, DefaultSizesRunFrom16MiBTo2GiBAndEndAtTheColdMissRatio) {
  std::string path = trace_path("cloudphysics_w_sample.vscsi");
  AgentRun run = run_agent("mrc --exact " + path);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json curve = nlohmann::json::parse(run.out);
  ASSERT_EQ(curve.size(), 15u);
  EXPECT_EQ(curve[0]["cache_bytes"], 16u << 20);
  EXPECT_EQ(curve[1]["cache_bytes"], 24u << 20);
  EXPECT_EQ(curve[14]["cache_bytes"], 2ull << 30);
  for (size_t i = 1; i < curve.size(); ++i) {
    EXPECT_LE(curve[i]["miss_ratio"].get<double>(), curve[i - 1]["miss_ratio"].get<double>());
  }
  auto reader = trace::open_trace(path);
  trace::IoRecord io;
  uint64_t references = 0;
  while (reader->next(io)) references += trace::blocks_touched(io).count();
  EXPECT_DOUBLE_EQ(curve[14]["miss_ratio"].get<double>(), 269'210.0 / references);
}

TEST(CliMrc, OneVolumeOfAMultiVolumeTrace) {
  AgentRun run = run_agent("mrc --exact --volume cbs-1125 --sizes 4KiB,1GiB " +
                      trace_path("tencent_cbs_sample50k.csv.bz2"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json curve = nlohmann::json::parse(run.out);
  ASSERT_EQ(curve.size(), 2u);
  EXPECT_EQ(curve[0]["cache_bytes"], 4096);
  EXPECT_GT(curve[0]["miss_ratio"].get<double>(), curve[1]["miss_ratio"].get<double>());
}

// An MSR Cambridge CSV trace of `passes` sequential passes over blocks 0..blocks-1,
// one 4 KiB read each.
std::string loop_trace(uint64_t blocks, int passes) {
  std::string csv;
  uint64_t time = 128166385295514663;
  for (int pass = 0; pass < passes; ++pass) {
    for (uint64_t b = 0; b < blocks; ++b) {
      csv += std::to_string(time += 1000) + ",loop,0,Read," + std::to_string(b * 4096) + ",4096,100\n";
    }
  }
  return csv;
}

double miss_ratio_at(const std::string& args) {
  AgentRun run = run_agent(args);
  EXPECT_EQ(run.exit_code, 0) << args << "\n" << run.err;
  const nlohmann::json curve = nlohmann::json::parse(run.out.empty() ? "[]" : run.out);
  EXPECT_EQ(curve.size(), 1u) << run.out;
  return curve.empty() ? -1 : curve[0]["miss_ratio"].get<double>();
}

/*
 * A loop over N = 10 blocks, 10 passes, through a cache of C = 9 blocks:
 * 100 references, the answers by hand.
 *  - LRU: each re-reference has stack distance N > C: every reference misses (1.0).
 *  - SIEVE: no block is ever hit, so no visited bit is set and SIEVE is FIFO,
 *    which misses every reference of a loop longer than the cache (1.0).
 *  - S3-FIFO (S = 1 slot, M = 8, G = 8 entries): pass 1 fills S and sends block
 *    0 to G; pass 2 misses throughout, each block found in G going to M (and
 *    pushing the next one from S into G), M's oldest leaving at block 9; from
 *    pass 3 on, blocks 2..9 stay in M and hit, and only 0 and 1 miss (one
 *    through S into G, back into M the next pass, M's reinsertion clearing
 *    the counters). Misses 2N + 2 (passes - 2) = 36: 0.36.
 *  - 2Q keeps part of the loop in Am through A1out (fewer misses than LRU).
 * Sizes are whole blocks: 36 KiB + 1000 B is rounded down to 9 blocks.
 */
TEST(CliMrc, EvictionPolicyCurvesOfALoopLongerThanTheCache) {
  TempFile trace("loop.csv", loop_trace(10, 10));
  const std::string mrc = "mrc " + trace.path() + " --exact --sizes 37864B";
  EXPECT_EQ(miss_ratio_at(mrc), 1.0) << "lru, the default";
  EXPECT_EQ(miss_ratio_at(mrc + " --eviction lru"), 1.0);
  EXPECT_EQ(miss_ratio_at(mrc + " --eviction sieve"), 1.0);
  EXPECT_DOUBLE_EQ(miss_ratio_at(mrc + " --eviction s3fifo"), 0.36);
  EXPECT_LT(miss_ratio_at(mrc + " --eviction 2q"), 1.0);
  // A cache of the whole loop misses the first pass only, whatever the policy.
  for (const std::string policy : {"lru", "s3fifo", "arc", "2q", "sieve"}) {
    EXPECT_DOUBLE_EQ(miss_ratio_at("mrc " + trace.path() + " --exact --sizes 40KiB --eviction " + policy), 0.1)
        << policy;
  }
}

/*
 * Two volumes reading the same block numbers 0..4, interleaved (A0 B0 A1 B1 ...), two passes:
 * 20 references of 10 distinct blocks. On one shared tier the volumes' blocks are apart: 10
 * blocks hold both, only first references miss (0.5); 5 blocks hold neither loop, as LRU's
 * stack distance is 10 (1.0). Were the volumes' blocks confused, 5 blocks would hit half.
 */
TEST(CliMrc, SharedTierKeepsTheVolumesBlocksApart) {
  std::string csv;
  for (int pass = 0; pass < 2; ++pass) {
    for (int block = 0; block < 5; ++block) {
      for (const char* volume : {"1", "2"}) {
        csv += "1538323200," + std::to_string(block * 8) + ",8,0," + volume + "\n";  // Tencent: sectors; 0 = read
      }
    }
  }
  TempFile trace("two-volumes.csv", csv);
  const std::string mrc = "mrc " + trace.path() + " --exact --shared-tier --sizes ";
  EXPECT_DOUBLE_EQ(miss_ratio_at(mrc + "40KiB"), 0.5);
  EXPECT_DOUBLE_EQ(miss_ratio_at(mrc + "20KiB"), 1.0);
  EXPECT_DOUBLE_EQ(miss_ratio_at(mrc + "40KiB --eviction s3fifo"), 0.5);
  AgentRun both = run_agent(mrc + "40KiB --volume cbs-1");
  EXPECT_EQ(both.exit_code, 2) << "--shared-tier and --volume exclude each other";
}

TEST(CliMrc, EvictionPolicyOfOneVolumeAndItsErrors) {
  const std::string tencent = trace_path("tencent_cbs_sample50k.csv.bz2");
  AgentRun run = run_agent("mrc --exact --eviction s3fifo --volume cbs-1125 --sizes 4KiB,1GiB " + tencent);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json curve = nlohmann::json::parse(run.out);
  ASSERT_EQ(curve.size(), 2u);
  EXPECT_EQ(curve[1]["cache_bytes"], 1ull << 30);
  EXPECT_GT(curve[0]["miss_ratio"].get<double>(), curve[1]["miss_ratio"].get<double>());
  AgentRun tiny = run_agent("mrc --exact --eviction sieve --sizes 4095B " + trace_path("msr_hm_0_sample1000.csv"));
  EXPECT_EQ(tiny.exit_code, 2);
  EXPECT_NE(tiny.err.find("below one 4 KiB block"), std::string::npos) << tiny.err;
  AgentRun unknown = run_agent("mrc --exact --eviction mru " + trace_path("msr_hm_0_sample1000.csv"));
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--eviction"), std::string::npos) << unknown.err;
  AgentRun multi = run_agent("mrc --exact --eviction arc " + tencent);
  EXPECT_EQ(multi.exit_code, 2);
  EXPECT_NE(multi.err.find("choose one with --volume"), std::string::npos) << multi.err;
}

TEST(CliSampleRefs, WritesDelimitedBatchesTheServiceCanRead) {
  std::string path = trace_path("cloudphysics_w_sample.vscsi");
  TempFile out("refs.bin");
  AgentRun run = run_agent("sample-refs " + path + " --key " + kKey + " --rate 0.01 --host test-host --out " +
                      out.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;

  // What the same sampler picks from the trace.
  sampling::KeyedHasher hasher(sampling::parse_tenant_key(kKey));
  sampling::ShardsSampler sampler(hasher, 0.01);
  struct Expected {
    uint64_t hash;
    uint64_t length_blocks;
    int64_t time_us;
  };
  std::vector<Expected> expected;
  uint64_t block_references = 0;
  auto reader = trace::open_trace(path);
  trace::IoRecord io;
  while (reader->next(io)) {
    trace::BlockRange range = trace::blocks_touched(io);
    block_references += range.count();
    for (uint64_t b = range.first; b <= range.last; ++b) {
      if (sampler.keeps(hasher.block_hash(b))) expected.push_back({hasher.block_hash(b), range.count(), io.time_us});
    }
  }

  std::vector<tierwise::v1::ReferenceBatch> batches = read_batches(out.path());
  // The last, partial batch also carries the unsampled references after the last sampled one.
  ASSERT_NE(expected.size() % 10'000, 0u);
  ASSERT_EQ(batches.size(), (expected.size() + 9'999) / 10'000);
  size_t index = 0;
  uint64_t considered = 0;
  for (size_t n = 0; n < batches.size(); ++n) {
    const auto& batch = batches[n];
    EXPECT_EQ(batch.sequence(), n);
    EXPECT_EQ(batch.volume_id(), hasher.volume_id("cloudphysics_w_sample"));
    EXPECT_EQ(batch.host_id(), hasher.host_id("test-host"));
    EXPECT_EQ(batch.sampling_modulus(), 1u << 24);
    EXPECT_EQ(batch.sampling_threshold(), 167'772u);
    EXPECT_EQ(batch.distinct_blocks_hll_precision(), 16u);
    EXPECT_LE(batch.references_size(), 10'000);
    EXPECT_GE(batch.considered_references(), static_cast<uint64_t>(batch.references_size()));
    considered += batch.considered_references();
    for (const auto& ref : batch.references()) {
      const Expected& want = expected[index++];
      ASSERT_EQ(ref.block_hash(), want.hash);
      ASSERT_EQ(batch.base_time_unix_nano() / 1000 + ref.time_offset_us(), static_cast<uint64_t>(want.time_us));
      ASSERT_EQ(ref.length_blocks(), want.length_blocks);
    }
  }
  EXPECT_EQ(index, expected.size());
  EXPECT_EQ(considered, block_references);
}

TEST(CliSampleRefs, MultiVolumeTracesGetOneStreamOfBatchesPerVolume) {
  TempFile out("refs.bin");
  AgentRun run = run_agent("sample-refs " + trace_path("tencent_cbs_sample50k.csv.bz2") + " --key " +
                      kKey + " --rate 0.1 --out " + out.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::map<std::string, uint64_t> next_sequence;
  for (const auto& batch : read_batches(out.path())) {
    EXPECT_EQ(batch.sequence(), next_sequence[batch.volume_id()]++);
    uint64_t previous = 0;
    for (const auto& ref : batch.references()) {
      EXPECT_GE(ref.time_offset_us(), previous);  // time order within the batch
      previous = ref.time_offset_us();
    }
  }
  EXPECT_GT(next_sequence.size(), 100u);
  EXPECT_LE(next_sequence.size(), 2'038u);
}

// `enroll` with an agent.yaml from before the gateway that also names it: the token goes to
// the gateway, api_url is ignored with one warning.
TEST(CliEnroll, ExchangesTheTokenAtTheGatewayAndIgnoresApiUrl) {
  tierwise::testing::HttpReceiver gateway;
  gateway.script({{201, "Created", R"({"agent_id":"a1","credential":"twa_abc"})", {"Content-Type: application/json"}}});
  TempFile key("anonymization.key", kKey);
  TempFile credential("agent.credential");
  TempFile config("agent.yaml", "gateway_url: " + gateway.url() + "/\n" +
                                    "api_url: http://127.0.0.1:1\n"  // nothing listens there
                                    "credential_file: " + credential.path() + "\n" +
                                    "anonymization_key_file: " + key.path() + "\n");
  const AgentRun run = run_agent("enroll --config " + config.path() + " --token twe_one_time");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string warning =
      "api_url is deprecated and ignored: the agent calls every route at gateway_url (docs/agent-gateway.md)\n";
  const size_t at = run.err.find(warning);
  ASSERT_NE(at, std::string::npos) << run.err;
  EXPECT_EQ(run.err.find(warning, at + 1), std::string::npos) << "one line: " << run.err;
  EXPECT_EQ(read_file(credential.path()), "twa_abc\n");
  const auto requests = gateway.requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(requests[0].method, "POST");
  EXPECT_EQ(requests[0].path, "/v1/agents/enroll");
  const nlohmann::json body = nlohmann::json::parse(requests[0].body);
  EXPECT_EQ(body["enrollment_token"], "twe_one_time");
  EXPECT_EQ(body["version"], tierwise::agent_version());
}

TEST(ByteSize, ParsesBinarySuffixes) {
  EXPECT_EQ(parse_byte_size("4096"), 4096u);
  EXPECT_EQ(parse_byte_size("512B"), 512u);
  EXPECT_EQ(parse_byte_size("16MiB"), 16u << 20);
  EXPECT_EQ(parse_byte_size("1.5GiB"), 3ull << 29);
  EXPECT_EQ(parse_byte_size("2TiB"), 2ull << 40);
  for (const char* bad : {"", "MiB", "16MB", "-1KiB", "0", "1e3", "16 MiB"}) {
    EXPECT_FALSE(parse_byte_size(bad)) << bad;
  }
}

}  // namespace
}  // namespace tierwise::cli
