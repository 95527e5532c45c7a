#include "vscsistats/vscsistats_csv.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include "telemetry/io_bins.hpp"
#include "telemetry/vscsi_bounds.hpp"

namespace tierwise::vscsistats {
namespace {

// The titles `vscsiStats -p all -c` gives its sixteen histograms.
struct Title {
  std::string_view text;
  Family family;
  View view;
};
constexpr Title kTitles[] = {
    {"IO lengths of commands", Family::kIoLength, View::kAll},
    {"IO lengths of Read commands", Family::kIoLength, View::kRead},
    {"IO lengths of Write commands", Family::kIoLength, View::kWrite},
    {"distance (in LBNs) between successive commands", Family::kSeekDistance, View::kAll},
    {"distance (in LBNs) between successive Read commands", Family::kSeekDistance, View::kRead},
    {"distance (in LBNs) between successive Write commands", Family::kSeekDistance, View::kWrite},
    {"distance (in LBNs) between each command from the closest of previous 16", Family::kSeekDistanceClosest,
     View::kAll},
    {"latency of IOs in Microseconds (us)", Family::kLatency, View::kAll},
    {"latency of Read IOs in Microseconds (us)", Family::kLatency, View::kRead},
    {"latency of Write IOs in Microseconds (us)", Family::kLatency, View::kWrite},
    {"number of outstanding IOs when a new IO is issued", Family::kOutstanding, View::kAll},
    {"number of outstanding Read IOs when a new Read IO is issued", Family::kOutstanding, View::kRead},
    {"number of outstanding Write IOs when a new Write IO is issued", Family::kOutstanding, View::kWrite},
    {"latency of IO interarrival time in Microseconds (us)", Family::kInterarrival, View::kAll},
    {"latency of IO interarrival time for Reads in Microseconds (us)", Family::kInterarrival, View::kRead},
    {"latency of IO interarrival time for Writes in Microseconds (us)", Family::kInterarrival, View::kWrite},
};

constexpr std::string_view kHeader = "Histogram: ";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == '\r' || s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> fields;
  for (size_t at = 0;;) {
    const size_t comma = line.find(',', at);
    fields.push_back(trim(line.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at)));
    if (comma == std::string_view::npos) return fields;
    at = comma + 1;
  }
}

std::optional<int64_t> integer(std::string_view s) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Reads the input line by line, counting lines for the errors.
class Lines {
 public:
  Lines(std::istream& in, const std::string& path) : in_(in), path_(path) {}
  // The next non-blank line, or false at the end.
  bool next(std::string& line) {
    while (std::getline(in_, line)) {
      ++number_;
      if (!trim(line).empty()) return true;
    }
    return false;
  }
  [[noreturn]] void fail(const std::string& problem) const {
    throw ParseError(path_ + ":" + std::to_string(number_) + ": " + problem);
  }
  size_t number() const { return number_; }

 private:
  std::istream& in_;
  const std::string& path_;
  size_t number_ = 0;
};

// "<name>,<integer>" at the next line.
int64_t field(Lines& lines, std::string_view name) {
  std::string line;
  if (!lines.next(line)) lines.fail("the file ends where '" + std::string(name) + ",<number>' was expected");
  const auto f = split(line);
  if (f.size() != 2 || f[0] != name) lines.fail("expected '" + std::string(name) + ",<number>', found '" + std::string(trim(line)) + "'");
  const auto v = integer(f[1]);
  if (!v) lines.fail("'" + std::string(f[1]) + "' is not an integer");
  return *v;
}

}  // namespace

std::vector<int64_t> limits_of(Family family) {
  switch (family) {
    case Family::kIoLength:
      return {telemetry::kIoLengthBounds.begin(), telemetry::kIoLengthBounds.end()};
    case Family::kSeekDistance:
    case Family::kSeekDistanceClosest:
      return {telemetry::kSeekDistanceBounds.begin(), telemetry::kSeekDistanceBounds.end()};
    case Family::kLatency:
      return {telemetry::kVscsiLatencyBoundsUs.begin(), telemetry::kVscsiLatencyBoundsUs.end()};
    case Family::kOutstanding:
      return {telemetry::kOutstandingBounds.begin(), telemetry::kOutstandingBounds.end()};
    case Family::kInterarrival:
      return {telemetry::kInterarrivalBoundsUs.begin(), telemetry::kInterarrivalBoundsUs.end()};
  }
  return {};
}

std::vector<Disk> parse(std::istream& in, const std::string& path, std::vector<std::string>* skipped) {
  Lines lines(in, path);
  std::vector<Disk> disks;
  std::string line;
  bool have = lines.next(line);
  if (!have) throw ParseError(path + ": no vscsiStats histogram (empty file)");
  while (have) {
    const std::string_view text = trim(line);
    if (!text.starts_with(kHeader)) lines.fail("expected 'Histogram: <title>,...', found '" + std::string(text) + "'");
    const auto f = split(text.substr(kHeader.size()));
    if (f.size() != 5 || f[1] != "virtual machine worldGroupID" || f[3] != "virtual disk handleID") {
      lines.fail("expected 'Histogram: <title>,virtual machine worldGroupID,<id>,virtual disk handleID,<id> (<label>)'");
    }
    const size_t header_line = lines.number();
    const auto title = std::find_if(std::begin(kTitles), std::end(kTitles), [&](const Title& t) { return t.text == f[0]; });
    if (title == std::end(kTitles)) {
      if (skipped) skipped->push_back(path + ":" + std::to_string(header_line) + ": " + std::string(f[0]));
      while ((have = lines.next(line)) && !trim(line).starts_with(kHeader)) {
      }
      continue;
    }
    const std::string_view handle = f[4];
    const size_t paren = handle.find(" (");
    Disk key{std::string(f[2]), std::string(handle.substr(0, paren)),
             paren == std::string_view::npos ? std::string() : std::string(trim(handle.substr(paren + 2))), {}};
    if (!key.label.empty() && key.label.back() == ')') key.label.pop_back();

    Histogram h;
    h.family = title->family;
    h.view = title->view;
    h.line = header_line;
    h.min = field(lines, "min");
    h.max = field(lines, "max");
    h.mean = field(lines, "mean");
    const int64_t count = field(lines, "count");
    if (count < 0) lines.fail("count " + std::to_string(count) + " is negative");
    h.count = static_cast<uint64_t>(count);
    if (!lines.next(line) || trim(line) != "Frequency,Histogram Bucket Limit") {
      lines.fail("expected 'Frequency,Histogram Bucket Limit'");
    }
    const std::vector<int64_t> limits = limits_of(h.family);
    uint64_t total = 0;
    for (size_t b = 0; b <= limits.size(); ++b) {
      if (!lines.next(line)) lines.fail("the file ends inside the histogram (bucket " + std::to_string(b + 1) + " of " + std::to_string(limits.size() + 1) + ")");
      const auto row = split(line);
      const auto frequency = row.size() == 2 ? integer(row[0]) : std::nullopt;
      const auto limit = row.size() == 2 ? integer(row[1]) : std::nullopt;
      if (!frequency || !limit || *frequency < 0) lines.fail("expected '<count>,<limit>', found '" + std::string(trim(line)) + "'");
      const int64_t expected = limits[std::min(b, limits.size() - 1)];
      if (*limit != expected) {
        lines.fail("bucket limit " + std::to_string(*limit) + ", expected vscsiStats' " + std::to_string(expected) +
                   " (proto/METRICS.md)");
      }
      h.buckets.push_back(static_cast<uint64_t>(*frequency));
      total += static_cast<uint64_t>(*frequency);
    }
    if (total != h.count) {
      throw ParseError(path + ":" + std::to_string(header_line) + ": count " + std::to_string(h.count) +
                       " but the buckets add up to " + std::to_string(total));
    }
    auto disk = std::find_if(disks.begin(), disks.end(), [&](const Disk& d) {
      return d.world_group_id == key.world_group_id && d.handle_id == key.handle_id;
    });
    if (disk == disks.end()) disk = disks.insert(disks.end(), std::move(key));
    for (const Histogram& other : disk->histograms) {
      if (other.family == h.family && other.view == h.view) {
        throw ParseError(path + ":" + std::to_string(header_line) + ": '" + std::string(title->text) +
                         "' again for this disk (first at line " + std::to_string(other.line) + ")");
      }
    }
    disk->histograms.push_back(std::move(h));
    have = lines.next(line);
  }
  if (disks.empty()) throw ParseError(path + ": no vscsiStats histogram this reader knows");
  return disks;
}

}  // namespace tierwise::vscsistats
