#include "replay/progress.hpp"

#include <cstdio>

namespace tierwise::replay {

Progress::Progress(std::string label, uint64_t total)
    : label_(std::move(label)),
      total_(total),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {}

void Progress::maybe_print(uint64_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_print_ < std::chrono::seconds(1)) return;
  last_print_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double percent = total_ == 0 ? 100.0 : 100.0 * static_cast<double>(done) / total_;
  std::fprintf(stderr, "%s: %.1f%% (%llu/%llu records), %.0f records/s\n", label_.c_str(),
               percent, static_cast<unsigned long long>(done),
               static_cast<unsigned long long>(total_), done / seconds);
}

}  // namespace tierwise::replay
