// Replay progress on stderr, at most once a second.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace tierwise::replay {

class Progress {
 public:
  // `label`: what is replayed (the trace path); `total`: records expected.
  Progress(std::string label, uint64_t total);

  // Records done so far. Cheap: looks at the clock once every 1024 calls and
  // prints "<label>: 45.0% (51200/113872 records), 98000 records/s" when a
  // second has passed since the last line.
  void update(uint64_t done) {
    if ((++calls_ & 1023) == 0) maybe_print(done);
  }

 private:
  void maybe_print(uint64_t done);

  std::string label_;
  uint64_t total_;
  uint64_t calls_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_print_;
};

}  // namespace tierwise::replay
