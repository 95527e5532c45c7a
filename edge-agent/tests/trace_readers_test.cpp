// Trace readers on the real samples in shared/traces (figures from its
// README), and on damaged copies of them.
#include <zlib.h>

#include <cstring>
#include <map>
#include <set>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "trace/blocks.hpp"
#include "trace/field_parse.hpp"
#include "trace/trace_reader.hpp"

namespace tierwise::trace {
namespace {

using tierwise::testing::read_file;
using tierwise::testing::TempFile;
using tierwise::testing::trace_path;

struct ReadResult {
  std::vector<IoRecord> records;
  std::vector<TraceError> errors;
  TraceFormat format = TraceFormat::kVscsi;
  Compression compression = Compression::kNone;
  uint64_t malformed = 0;
  uint64_t skipped = 0;
};

ReadResult read_all(const std::string& path, std::optional<TraceFormat> format = std::nullopt) {
  ReadResult result;
  TraceOptions options;
  options.format = format;
  options.on_error = [&](const TraceError& e) { result.errors.push_back(e); };
  auto reader = open_trace(path, options);
  IoRecord record;
  while (reader->next(record)) result.records.push_back(record);
  result.format = reader->format();
  result.compression = reader->compression();
  result.malformed = reader->malformed_records();
  result.skipped = reader->skipped_records();
  EXPECT_EQ(reader->records(), result.records.size());
  return result;
}

// Everything but the volume name (derived from the file name).
void expect_same_io(const IoRecord& a, const IoRecord& b) {
  EXPECT_EQ(a.time_us, b.time_us);
  EXPECT_EQ(a.offset_bytes, b.offset_bytes);
  EXPECT_EQ(a.length_bytes, b.length_bytes);
  EXPECT_EQ(a.direction, b.direction);
  EXPECT_EQ(a.response_time_us, b.response_time_us);
}

struct Totals {
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t bytes = 0;
  int64_t first_us = INT64_MAX;
  int64_t last_us = INT64_MIN;
  std::set<std::string> volumes;
};

Totals totals_of(const std::vector<IoRecord>& records) {
  Totals t;
  for (const IoRecord& r : records) {
    (r.direction == Direction::kRead ? t.reads : t.writes) += 1;
    t.bytes += r.length_bytes;
    t.first_us = std::min(t.first_us, r.time_us);
    t.last_us = std::max(t.last_us, r.time_us);
    t.volumes.insert(r.volume);
  }
  return t;
}

std::string without_first_bytes(const std::string& text, size_t n) { return text.substr(n); }

TEST(VscsiReader, ReadsCloudPhysicsSample) {
  ReadResult r = read_all(trace_path("cloudphysics_w_sample.vscsi"));
  EXPECT_EQ(r.format, TraceFormat::kVscsi);
  EXPECT_EQ(r.compression, Compression::kNone);
  ASSERT_EQ(r.records.size(), 113'872u);
  EXPECT_EQ(r.malformed, 0u);
  EXPECT_EQ(r.skipped, 0u);
  Totals t = totals_of(r.records);
  EXPECT_EQ(t.reads, 46'974u);
  EXPECT_EQ(t.writes, 66'898u);
  EXPECT_EQ(t.bytes >> 20, 4'011u);  // README: 4,011 MiB moved
  EXPECT_EQ(t.first_us, 5'633'898'368'802);
  EXPECT_EQ(t.last_us, 5'641'098'458'687);
  EXPECT_EQ(t.volumes, std::set<std::string>{"cloudphysics_w_sample"});

  std::unordered_set<uint64_t> blocks;
  std::map<uint32_t, uint64_t> sizes;
  for (const IoRecord& io : r.records) {
    BlockRange range = blocks_touched(io);
    for (uint64_t b = range.first; b <= range.last; ++b) blocks.insert(b);
    ++sizes[io.length_bytes];
    EXPECT_EQ(io.response_time_us, -1);
  }
  EXPECT_EQ(blocks.size(), 269'210u);
  EXPECT_EQ(sizes[64 * 1024], 38'389u);
  EXPECT_EQ(sizes[8 * 1024], 19'473u);
  EXPECT_EQ(sizes[4 * 1024], 15'306u);
  EXPECT_EQ(sizes[68 * 1024], 11'227u);
}

TEST(CloudPhysicsCsvReader, GivesTheSameIoAsTheVscsiFile) {
  ReadResult csv = read_all(trace_path("cloudphysics_w_sample.csv"));
  ReadResult vscsi = read_all(trace_path("cloudphysics_w_sample.vscsi"));
  EXPECT_EQ(csv.format, TraceFormat::kCloudPhysicsCsv);
  EXPECT_EQ(csv.malformed, 0u);
  ASSERT_EQ(csv.records.size(), vscsi.records.size());
  for (size_t i = 0; i < csv.records.size(); ++i) {
    const IoRecord& c = csv.records[i];
    const IoRecord& v = vscsi.records[i];
    ASSERT_EQ(c.offset_bytes, v.offset_bytes) << "record " << i;
    ASSERT_EQ(c.length_bytes, v.length_bytes) << "record " << i;
    ASSERT_EQ(c.direction, v.direction) << "record " << i;
    ASSERT_EQ(c.volume, v.volume) << "record " << i;
    // The CSV keeps whole seconds only (vscsi ts / 1e6, truncated).
    ASSERT_EQ(c.time_us, v.time_us / 1'000'000 * 1'000'000) << "record " << i;
  }
}

TEST(MsrCsvReader, ReadsHm0Sample) {
  ReadResult r = read_all(trace_path("msr_hm_0_sample1000.csv"));
  EXPECT_EQ(r.format, TraceFormat::kMsrCsv);
  ASSERT_EQ(r.records.size(), 1'000u);
  Totals t = totals_of(r.records);
  EXPECT_EQ(t.reads, 508u);
  EXPECT_EQ(t.writes, 492u);
  EXPECT_EQ(t.volumes, std::set<std::string>{"hm_0"});
  EXPECT_NEAR((t.last_us - t.first_us) / 1e6, 127.23, 0.005);
  // 128166385295514663 (FILETIME) = 2007-02-22 17:22:09.551466 UTC.
  const IoRecord& first = r.records.front();
  EXPECT_EQ(first.time_us, 1'172'164'929'551'466);
  EXPECT_EQ(first.direction, Direction::kWrite);
  EXPECT_EQ(first.offset_bytes, 9'056'014'336u);
  EXPECT_EQ(first.length_bytes, 2'048u);
  EXPECT_EQ(first.response_time_us, 283);  // 2833 ticks of 100 ns
  uint64_t four_kib = 0;
  for (const IoRecord& io : r.records) {
    four_kib += io.length_bytes == 4096;
    EXPECT_GE(io.response_time_us, 68);     // 686 ticks
    EXPECT_LE(io.response_time_us, 28'412);  // 284,125 ticks
  }
  EXPECT_EQ(four_kib, 547u);
}

TEST(SystorCsvReader, ReadsBothGzipSamples) {
  ReadResult a = read_all(trace_path("systor17_lun0_sample_a.csv.gz"));
  EXPECT_EQ(a.format, TraceFormat::kSystorCsv);
  EXPECT_EQ(a.compression, Compression::kGzip);
  ASSERT_EQ(a.records.size(), 999u);
  Totals ta = totals_of(a.records);
  EXPECT_EQ(ta.reads, 826u);
  EXPECT_EQ(ta.writes, 173u);
  EXPECT_EQ(ta.volumes, std::set<std::string>{"lun0"});
  EXPECT_NEAR((ta.last_us - ta.first_us) / 1e6, 2.45, 0.005);
  EXPECT_EQ(ta.first_us / 1'000'000, 1'456'095'145);  // 2016-02-21 22:52:25 UTC
  // First row: 1456095145.133076000,0.000806000,R,0,899056122368,131072
  const IoRecord& first = a.records.front();
  EXPECT_EQ(first.time_us, 1'456'095'145'133'076);
  EXPECT_EQ(first.response_time_us, 806);
  EXPECT_EQ(first.direction, Direction::kRead);
  EXPECT_EQ(first.offset_bytes, 899'056'122'368u);
  EXPECT_EQ(first.length_bytes, 131'072u);
  // Kept in file order, which is not time order.
  EXPECT_LT(a.records[1].time_us, a.records[0].time_us);

  ReadResult b = read_all(trace_path("systor17_lun0_sample_b.csv.gz"));
  ASSERT_EQ(b.records.size(), 999u);
  Totals tb = totals_of(b.records);
  EXPECT_EQ(tb.reads, 700u);
  EXPECT_EQ(tb.writes, 299u);
  EXPECT_NEAR((tb.last_us - tb.first_us) / 1e6, 1.33, 0.005);
}

TEST(TencentCsvReader, ReadsBzip2SampleWithItsVolumes) {
  ReadResult r = read_all(trace_path("tencent_cbs_sample50k.csv.bz2"));
  EXPECT_EQ(r.format, TraceFormat::kTencentCsv);
  EXPECT_EQ(r.compression, Compression::kBzip2);
  ASSERT_EQ(r.records.size(), 50'000u);
  Totals t = totals_of(r.records);
  EXPECT_EQ(t.reads, 24'521u);
  EXPECT_EQ(t.writes, 25'479u);
  EXPECT_EQ(t.volumes.size(), 2'038u);
  EXPECT_EQ(t.first_us, 1'538'323'199'000'000);
  EXPECT_EQ(t.last_us, 1'538'323'200'000'000);
  // First row: 1538323200,4247200,128,1,1058 (sectors of 512 bytes).
  const IoRecord& first = r.records.front();
  EXPECT_EQ(first.offset_bytes, 4'247'200u * 512);
  EXPECT_EQ(first.length_bytes, 128u * 512);
  EXPECT_EQ(first.direction, Direction::kWrite);
  EXPECT_EQ(first.volume, "cbs-1058");
}

TEST(VscsiReader, ReportsATruncatedTailAndKeepsTheRecordsBeforeIt) {
  std::string original = read_file(trace_path("cloudphysics_w_sample.vscsi"));
  TempFile file("truncated.vscsi", original.substr(0, 1'000 * 32 + 12));
  ReadResult cut = read_all(file.path());
  ReadResult full = read_all(trace_path("cloudphysics_w_sample.vscsi"));

  ASSERT_EQ(cut.records.size(), 1'000u);
  for (size_t i = 0; i < cut.records.size(); ++i) expect_same_io(cut.records[i], full.records[i]);
  EXPECT_EQ(cut.malformed, 1u);
  ASSERT_EQ(cut.errors.size(), 1u);
  EXPECT_EQ(cut.errors[0].to_string(),
            file.path() + ":record 1001: truncated record: 12 of 32 bytes");
}

TEST(VscsiReader, ReadsVersion2RecordsWithResponseTimes) {
  // Re-encode the first 100 v1 records as v2 (cmd, ver, sn, len, nSG, lbn, ts, rt).
  std::string v1 = read_file(trace_path("cloudphysics_w_sample.vscsi")).substr(0, 100 * 32);
  std::string v2;
  for (size_t i = 0; i < 100; ++i) {
    const char* r = v1.data() + i * 32;
    char out[40] = {};
    std::memcpy(out + 0, r + 12, 2);  // cmd
    out[3] = 2;                       // ver = 0x0200
    std::memcpy(out + 4, r + 0, 4);   // sn
    std::memcpy(out + 8, r + 4, 4);   // len
    std::memcpy(out + 12, r + 8, 4);  // nSG
    std::memcpy(out + 16, r + 16, 16);  // lbn, ts
    uint64_t rt = 250 + i;
    std::memcpy(out + 32, &rt, 8);  // little-endian host
    v2.append(out, sizeof out);
  }
  TempFile file("v2.vscsi", v2);
  ReadResult r2 = read_all(file.path());
  ReadResult r1 = read_all(trace_path("cloudphysics_w_sample.vscsi"));
  ASSERT_EQ(r2.records.size(), 100u);
  EXPECT_EQ(r2.malformed, 0u);
  for (size_t i = 0; i < 100; ++i) {
    IoRecord expected = r1.records[i];
    expected.response_time_us = static_cast<int64_t>(250 + i);
    expect_same_io(r2.records[i], expected);
  }
}

TEST(CsvReader, ReportsBrokenLinesByNumberAndReadsTheRest) {
  std::string csv =
      "version,time,op,size,lbn\n"
      "1,5633898,2a,512,42932745\n"
      "1,5633898,28,4096,100\n"
      "1,5633898,2a,51x,42932746\n"  // line 4: bad size
      "1,5633899,28,8192,200\r\n"    // CRLF is fine
      "1,5633899,2a,4096\n"          // line 6: a field missing
      "1,5633899,35,0,0\n"           // SYNCHRONIZE CACHE: no block data
      "1,5633900,28,65536,300";      // no final newline
  TempFile file("broken.csv", csv);
  ReadResult r = read_all(file.path());
  EXPECT_EQ(r.format, TraceFormat::kCloudPhysicsCsv);
  ASSERT_EQ(r.records.size(), 4u);
  EXPECT_EQ(r.records[1].offset_bytes, 100u * 512);
  EXPECT_EQ(r.records[2].length_bytes, 8192u);
  EXPECT_EQ(r.records[3].offset_bytes, 300u * 512);
  EXPECT_EQ(r.records[3].time_us, 5'633'900'000'000);
  EXPECT_EQ(r.malformed, 2u);
  EXPECT_EQ(r.skipped, 1u);
  ASSERT_EQ(r.errors.size(), 2u);
  EXPECT_EQ(r.errors[0].to_string(), file.path() + ":4: field 'size': '51x' is not an unsigned integer");
  EXPECT_EQ(r.errors[1].to_string(), file.path() + ":6: expected 5 fields, found 4");
}

TEST(GzipInput, ReportsATruncatedStreamAndKeepsWhatCameBefore) {
  std::string csv = read_file(trace_path("cloudphysics_w_sample.csv"));
  TempFile whole("whole.csv.gz");
  gzFile gz = gzopen(whole.path().c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, csv.data(), static_cast<unsigned>(csv.size())), static_cast<int>(csv.size()));
  ASSERT_EQ(gzclose(gz), Z_OK);
  std::string compressed = read_file(whole.path());
  TempFile cut("cut.csv.gz", compressed.substr(0, compressed.size() / 2));

  ReadResult full = read_all(whole.path());
  EXPECT_EQ(full.compression, Compression::kGzip);
  EXPECT_EQ(full.records.size(), 113'872u);
  ReadResult half = read_all(cut.path());
  EXPECT_GT(half.records.size(), 10'000u);
  EXPECT_LT(half.records.size(), 113'872u);
  for (size_t i = 0; i < half.records.size(); ++i) {
    ASSERT_EQ(half.records[i].offset_bytes, full.records[i].offset_bytes) << "record " << i;
  }
  ASSERT_EQ(half.errors.size(), 1u);
  EXPECT_EQ(half.errors[0].number, half.records.size() + 2);  // header + records, then the cut
  EXPECT_NE(half.errors[0].reason.find("gzip stream is truncated"), std::string::npos);
}

TEST(FormatDetection, HeaderlessRowsAndOverrides) {
  std::string csv = read_file(trace_path("cloudphysics_w_sample.csv"));
  TempFile headerless("noheader.csv", without_first_bytes(csv, csv.find('\n') + 1));
  ReadResult r = read_all(headerless.path());
  EXPECT_EQ(r.format, TraceFormat::kCloudPhysicsCsv);
  EXPECT_EQ(r.records.size(), 113'872u);

  TempFile readme("notes.txt", "# not a trace\nhello\n");
  try {
    open_trace(readme.path());
    FAIL() << "expected TraceOpenError";
  } catch (const TraceOpenError& e) {
    EXPECT_NE(std::string(e.what()).find(readme.path() + ": cannot recognise the trace format"),
              std::string::npos);
  }
  EXPECT_THROW(open_trace(trace_path("msr_hm_0_sample1000.csv"), {TraceFormat::kVscsi, {}}),
               TraceOpenError);
  EXPECT_THROW(open_trace("/nonexistent/trace.csv"), TraceOpenError);
  // Forcing the wrong CSV format reports every row instead of guessing.
  ReadResult forced = read_all(trace_path("msr_hm_0_sample1000.csv"), TraceFormat::kTencentCsv);
  EXPECT_EQ(forced.records.size(), 0u);
  EXPECT_EQ(forced.malformed, 1'000u);
}

TEST(FieldParse, SecondsConvertExactlyToMicroseconds) {
  EXPECT_EQ(parse_seconds_as_us("1456095145.133076999", "t"), 1'456'095'145'133'076);
  EXPECT_EQ(parse_seconds_as_us("0.000806000", "t"), 806);
  EXPECT_EQ(parse_seconds_as_us("12", "t"), 12'000'000);
  EXPECT_EQ(parse_seconds_as_us("3.5", "t"), 3'500'000);
  for (const char* bad : {"", "1.", ".5", "-1", "1e3", "1.2.3", "99999999999999999999"}) {
    EXPECT_THROW(parse_seconds_as_us(bad, "t"), MalformedRecord) << bad;
  }
}

}  // namespace
}  // namespace tierwise::trace
