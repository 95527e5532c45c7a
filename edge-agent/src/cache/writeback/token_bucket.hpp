// Token bucket rate limiter for the destager (bytes per second).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace tierwise::cache::writeback {

/*
 * A token bucket (Tanenbaum, Computer Networks, 5.4.2): tokens (bytes) accrue at
 * `rate` bytes/s up to `burst` bytes, starting from none; take(n) spends n when
 * available. A rate of 0 means unlimited: take() always succeeds.
 */
class TokenBucket {
 public:
  using Clock = std::chrono::steady_clock;

  // rate_bytes_per_s: 0 = unlimited. burst_bytes: the most that can be spent at
  // once after an idle period (at least one 4 KiB block).
  TokenBucket(uint64_t rate_bytes_per_s, uint64_t burst_bytes)
      : rate_(rate_bytes_per_s), burst_(std::max<uint64_t>(burst_bytes, 4096)),
        last_(Clock::now()) {}

  uint64_t rate() const { return rate_; }

  // Spends `bytes` tokens if the bucket holds them now; false otherwise.
  bool take(uint64_t bytes, Clock::time_point now) {
    if (rate_ == 0) return true;
    const double elapsed_s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    tokens_ = std::min(static_cast<double>(burst_), tokens_ + elapsed_s * static_cast<double>(rate_));
    if (tokens_ < static_cast<double>(bytes)) return false;
    tokens_ -= static_cast<double>(bytes);
    return true;
  }

 private:
  uint64_t rate_;
  uint64_t burst_;
  double tokens_ = 0;
  Clock::time_point last_;
};

}  // namespace tierwise::cache::writeback
