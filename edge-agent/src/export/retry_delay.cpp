#include "export/retry_delay.hpp"

#include <algorithm>
#include <cstdint>

namespace tierwise::exporter {

std::chrono::milliseconds retry_delay(std::chrono::milliseconds initial_backoff,
                                      std::chrono::milliseconds max_backoff, int attempt,
                                      long retry_after_seconds, std::mt19937_64& rng) {
  const int64_t cap = max_backoff.count();
  const int doublings = std::clamp(attempt - 1, 0, 20);
  const int64_t base = std::min<int64_t>(initial_backoff.count() << doublings, cap);
  int64_t delay = base - base / 2 + std::uniform_int_distribution<int64_t>(0, base / 2)(rng);
  if (retry_after_seconds > 0) {
    const int64_t least = std::min<int64_t>(retry_after_seconds * 1000, cap);
    const int64_t spread = least + std::uniform_int_distribution<int64_t>(0, least / 2)(rng);
    delay = std::min(std::max(delay, spread), cap);
  }
  return std::chrono::milliseconds(delay);
}

}  // namespace tierwise::exporter
