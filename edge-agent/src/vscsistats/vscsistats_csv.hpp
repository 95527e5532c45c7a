// Reader of the CSV that VMware's `vscsiStats -p all -c` writes: sections of
//
//   Histogram: <title>,virtual machine worldGroupID,<id>,virtual disk handleID,<id> (<label>)
//   min,<v>
//   max,<v>
//   mean,<v>
//   count,<v>
//   Frequency,Histogram Bucket Limit
//   <count>,<limit>         one row per bucket; the last repeats the last limit
//                           and counts the values above it
//
// (Ahmad, "Easy and Efficient Disk I/O Workload Characterization in VMware ESX
// Server", IISWC 2007; ../shared/traces/README.md §7 describes the format and
// the sample file). The sixteen histograms of a virtual disk map onto the
// families of proto/METRICS.md, each of which keeps vscsiStats' own limits
// (telemetry/io_bins.hpp, telemetry/vscsi_bounds.hpp); a section whose limits
// differ is malformed.
#pragma once

#include <cstdint>
#include <istream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tierwise::vscsistats {

// A vscsiStats histogram family, as proto/METRICS.md names its metric.
enum class Family : uint8_t {
  kIoLength,           // tierwise.io.size (bytes)
  kSeekDistance,       // tierwise.io.seek_distance (sectors)
  kSeekDistanceClosest,  // tierwise.io.seek_distance.closest (sectors; all only)
  kLatency,            // tierwise.io.latency.vscsistats (us)
  kOutstanding,        // tierwise.io.outstanding (I/Os)
  kInterarrival,       // tierwise.io.interarrival (us)
};

// Which commands a histogram counts: every command, reads, or writes
// (telemetry's direction views: read = 0, write = 1, all = 2).
enum class View : uint8_t { kRead = 0, kWrite = 1, kAll = 2 };

// One histogram of one virtual disk.
struct Histogram {
  Family family = Family::kIoLength;
  View view = View::kAll;
  int64_t min = 0;   // vscsiStats' min, max and mean, in the family's unit
  int64_t max = 0;
  int64_t mean = 0;
  uint64_t count = 0;  // equals the sum of `buckets`
  std::vector<uint64_t> buckets;  // one more than the family's limits
  size_t line = 0;   // 1-based line of its "Histogram:" header
};

// One virtual disk's histograms, in file order.
struct Disk {
  std::string world_group_id;  // the virtual machine's worldGroupID
  std::string handle_id;       // the virtual disk's handleID
  std::string label;           // e.g. "scsi0:0"
  std::vector<Histogram> histograms;
};

// Malformed input: what() is "<path>:<line>: <problem>".
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads every section of `in` (named `path` in errors), grouped by virtual
// disk in order of first appearance. Sections of a title this reader does not
// know are skipped and named in `skipped` ("<path>:<line>: <title>").
// Throws ParseError for a malformed section (a missing or non-numeric field,
// limits other than vscsiStats', a count that is not the sum of its buckets,
// a histogram given twice for one disk) or when `in` holds no histogram.
std::vector<Disk> parse(std::istream& in, const std::string& path, std::vector<std::string>* skipped);

// The family's bucket limits as vscsiStats writes them (without the repeated
// last one).
std::vector<int64_t> limits_of(Family family);

}  // namespace tierwise::vscsistats
