// The vscsiStats CSV reader on the real sample file (../shared/traces
// vscsistats_histograms_sample.csv) and on malformed variants of it, and its
// mapping onto one interval of agent telemetry.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "test_support.hpp"
#include "vscsistats/import_interval.hpp"
#include "vscsistats/vscsistats_csv.hpp"

namespace tierwise::vscsistats {
namespace {

using testing::read_file;
using testing::trace_path;

const std::string kSample = trace_path("vscsistats_histograms_sample.csv");

std::vector<Disk> parse_text(const std::string& text, std::vector<std::string>* skipped = nullptr) {
  std::istringstream in(text);
  return parse(in, "x.csv", skipped);
}

std::string sample_text() { return read_file(kSample); }

// The sample with line `line` (1-based) replaced by `replacement`.
std::string with_line(size_t line, const std::string& replacement) {
  std::istringstream in(sample_text());
  std::ostringstream out;
  std::string l;
  for (size_t n = 1; std::getline(in, l); ++n) out << (n == line ? replacement : l) << '\n';
  return out.str();
}

std::string error_of(const std::string& text) {
  try {
    parse_text(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "";
}

TEST(VscsiStatsCsv, ReadsTheSixteenHistogramsOfTheSample) {
  std::ifstream in(kSample);
  const std::vector<Disk> disks = parse(in, kSample, nullptr);
  ASSERT_EQ(disks.size(), 1u);
  const Disk& d = disks[0];
  EXPECT_EQ(d.world_group_id, "2099979");
  EXPECT_EQ(d.handle_id, "8194");
  EXPECT_EQ(d.label, "scsi0:0");
  ASSERT_EQ(d.histograms.size(), 16u);
  const Histogram& io_length = d.histograms[0];
  EXPECT_EQ(io_length.family, Family::kIoLength);
  EXPECT_EQ(io_length.view, View::kAll);
  EXPECT_EQ(io_length.count, 793u);
  EXPECT_EQ(io_length.mean, 5332);
  ASSERT_EQ(io_length.buckets.size(), 18u);
  EXPECT_EQ(io_length.buckets[4], 608u);  // 4096 bytes
  const Histogram& closest = d.histograms[6];
  EXPECT_EQ(closest.family, Family::kSeekDistanceClosest);
  EXPECT_EQ(closest.buckets.size(), 34u);
  EXPECT_EQ(d.histograms[7].family, Family::kLatency);
  EXPECT_EQ(d.histograms[7].buckets, (std::vector<uint64_t>{0, 0, 403, 304, 78, 4, 0, 0, 3, 1, 0}));
  EXPECT_EQ(d.histograms[15].family, Family::kInterarrival);
  EXPECT_EQ(d.histograms[15].view, View::kWrite);
}

TEST(VscsiStatsCsv, MapsTheSampleOntoOneInterval) {
  std::ifstream in(kSample);
  const telemetry::IntervalMetrics m = interval_of(parse(in, kSample, nullptr)[0]);
  constexpr auto f = static_cast<size_t>(telemetry::Source::kFrontend);
  EXPECT_EQ(m.operations[0][f], 4u);    // reads
  EXPECT_EQ(m.operations[1][f], 789u);  // writes
  EXPECT_EQ(m.bytes[0][f], 4u * 25600);
  EXPECT_EQ(m.size[1].count, 789u);
  EXPECT_DOUBLE_EQ(m.size[1].min, 512);
  EXPECT_EQ(m.seek_distance[telemetry::kAllDirections].count, 793u);
  EXPECT_EQ(m.seek_distance_closest.count, 793u);
  EXPECT_EQ(m.vscsi_latency[telemetry::kAllDirections].bucket_counts[2], 403u);
  EXPECT_EQ(m.outstanding[0].count, 4u);
  EXPECT_DOUBLE_EQ(m.interarrival[telemetry::kAllDirections].max, 581013626718.0);
  EXPECT_EQ(m.cache.hit_blocks[0], 0u);
}

TEST(VscsiStatsCsv, MalformedInputIsReportedWithFileAndLine) {
  EXPECT_EQ(error_of(with_line(10, "13,4096")), "x.csv:10: bucket limit 4096, expected vscsiStats' 4095 (proto/METRICS.md)");
  EXPECT_EQ(error_of(with_line(10, "42")), "x.csv:10: expected '<count>,<limit>', found '42'");
  EXPECT_EQ(error_of(with_line(10, "-1,512")), "x.csv:10: expected '<count>,<limit>', found '-1,512'");
  EXPECT_EQ(error_of(with_line(5, "count,794")), "x.csv:1: count 794 but the buckets add up to 793");
  EXPECT_EQ(error_of(with_line(4, "mean,lots")), "x.csv:4: 'lots' is not an integer");
  EXPECT_EQ(error_of(with_line(6, "Frequency")), "x.csv:6: expected 'Frequency,Histogram Bucket Limit'");
  EXPECT_EQ(error_of(with_line(1, "Histogram: IO lengths of commands")),
            "x.csv:1: expected 'Histogram: <title>,virtual machine worldGroupID,<id>,virtual disk handleID,<id> (<label>)'");
  EXPECT_EQ(error_of(sample_text().substr(0, sample_text().find("0,65535"))),
            "x.csv:17: the file ends inside the histogram (bucket 12 of 18)");
  EXPECT_EQ(error_of(""), "x.csv: no vscsiStats histogram (empty file)");
  const std::string first = sample_text().substr(0, sample_text().find("Histogram: IO lengths of Read"));
  EXPECT_EQ(error_of(first + first), "x.csv:25: 'IO lengths of commands' again for this disk (first at line 1)");
}

TEST(VscsiStatsCsv, SkipsHistogramsItDoesNotKnowAndKeepsTheRest) {
  const std::string unknown = "Histogram: something new,virtual machine worldGroupID,1,virtual disk handleID,2 (scsi0:1)\nmin,0\n";
  std::vector<std::string> skipped;
  const auto disks = parse_text(unknown + sample_text(), &skipped);
  EXPECT_EQ(skipped, (std::vector<std::string>{"x.csv:1: something new"}));
  ASSERT_EQ(disks.size(), 1u);
  EXPECT_EQ(disks[0].histograms.size(), 16u);
}

TEST(VscsiStatsCsv, TwoDisksAreTwoVolumes) {
  std::string other = sample_text();
  for (size_t at = 0; (at = other.find("(scsi0:0)", at)) != std::string::npos; at += 9) other.replace(at, 9, "(scsi0:1)");
  for (size_t at = 0; (at = other.find(",8194 ", at)) != std::string::npos; at += 6) other.replace(at, 6, ",8195 ");
  const auto disks = parse_text(sample_text() + other);
  ASSERT_EQ(disks.size(), 2u);
  EXPECT_EQ(disks[1].label, "scsi0:1");
  EXPECT_EQ(disks[1].histograms.size(), 16u);
}

}  // namespace
}  // namespace tierwise::vscsistats
