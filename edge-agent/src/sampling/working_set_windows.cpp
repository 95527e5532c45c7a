#include "sampling/working_set_windows.hpp"

#include <sodium.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

#include "cache/writeback/journal_format.hpp"
#include "common/little_endian.hpp"
#include "sampling/sodium_init.hpp"

namespace tierwise::sampling {
namespace {

// save()'s layout: its magic and version.
constexpr char kMagic[4] = {'T', 'W', 'W', 'S'};
constexpr uint32_t kVersion = 1;

// 1 / R for R = T / P, as doubles (stream-jobs SamplingRate.of).
double scale_of(uint64_t threshold, uint64_t modulus) {
  return 1.0 / (static_cast<double>(threshold) / static_cast<double>(modulus));
}

template <typename T>
void put(std::string& out, T value) {
  std::byte bytes[sizeof(T)];
  common::store_le(bytes, value);
  out.append(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

// The CRC-32C (RFC 3720) of a saved state, its last field, as the agent's
// other on-disk formats carry (cache/writeback/journal_format.hpp).
uint32_t crc(std::string_view bytes) {
  return cache::writeback::crc32c(std::as_bytes(std::span(bytes.data(), bytes.size())));
}

// Reads little-endian fields off a saved state; ok() turns false at the first
// field past its end.
class Reader {
 public:
  explicit Reader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  T get() {
    if (bytes_.size() - at_ < sizeof(T)) {
      at_ = bytes_.size();
      ok_ = false;
      return T{};
    }
    const T value = common::load_le<T>(reinterpret_cast<const std::byte*>(bytes_.data() + at_));
    at_ += sizeof(T);
    return value;
  }
  bool ok() const { return ok_; }
  bool done() const { return ok_ && at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace

WorkingSetWindows::WorkingSetWindows(uint64_t modulus, uint64_t threshold, uint32_t max_samples, size_t parts)
    : modulus_(modulus),
      threshold_(threshold),
      scale_(scale_of(threshold, modulus)),
      max_samples_(max_samples),
      parts_(parts) {
  if (modulus == 0 || threshold == 0 || threshold > modulus || max_samples == 0) {
    throw std::invalid_argument("working-set windows need 0 < T <= P and s_max >= 1, got T " +
                                std::to_string(threshold) + ", P " + std::to_string(modulus) + ", s_max " +
                                std::to_string(max_samples));
  }
  ensure_sodium();
  randombytes_buf(&sample_id_, sizeof sample_id_);
}

size_t WorkingSetWindows::add_part() {
  parts_.emplace_back();
  return parts_.size() - 1;
}

WorkingSetWindows::PartShares& WorkingSetWindows::part_shares(size_t part) {
  if (part >= parts_.size()) {
    throw std::out_of_range("working-set windows part " + std::to_string(part) + " of " +
                            std::to_string(parts_.size()));
  }
  return parts_[part];
}

uint32_t WorkingSetWindows::distance_bucket(double x) {
  constexpr int kSubBits = 6;
  constexpr int kSub = 1 << kSubBits;
  constexpr int kMaxExponent = 62;
  if (x < kSub) return static_cast<uint32_t>(x);
  const int exponent = std::min(std::ilogb(x), kMaxExponent);
  const int shift = exponent - kSubBits;
  const int mantissa = static_cast<int>(std::min(2.0 * kSub - 1, std::ldexp(x, -shift)));
  return static_cast<uint32_t>(kSub + shift * kSub + (mantissa - kSub));
}

void WorkingSetWindows::roll(size_t w, int64_t now) {
  std::deque<Pane>& window = panes_[w];
  if (w == 0) {
    if (window.empty()) window.push_back(Pane{0, 0, now});
    return;
  }
  const int64_t length = int64_t{kSlidingSeconds[w - 1]} * 1'000'000'000;
  const int64_t hop = length / kPanes;
  const int64_t start = (now >= 0 ? now / hop : (now - hop + 1) / hop) * hop;  // floor
  if (window.empty() || window.back().start_unix_nano < start) {
    epoch_ = std::min(epoch_ + 1, ReuseDistanceStack::kMaxEpoch);
    window.push_back(Pane{start, epoch_, now});
  }
  while (window.front().start_unix_nano < now - length) window.pop_front();
}

const WorkingSetWindows::Pane* WorkingSetWindows::started_by(size_t w, int32_t epoch) const {
  const std::deque<Pane>& window = panes_[w];
  for (auto it = window.rbegin(); it != window.rend(); ++it) {
    if (it->epoch <= epoch) return &*it;
  }
  return nullptr;
}

WorkingSetWindows::Share& WorkingSetWindows::share(PartShares& part, size_t w, const Pane& pane) {
  Share& s = part.shares[ShareKey{window_seconds(w), pane.start_unix_nano}];
  s.first_unix_nano = pane.first_unix_nano;
  return s;
}

void WorkingSetWindows::repeat(PartShares& part, size_t w, const ReuseDistanceStack::Marks& marks) {
  if (const Pane* p = started_by(w, marks.access_epoch())) ++share(part, w, *p).block_repeats;
  if (const Pane* p = started_by(w, marks.read_epoch)) ++share(part, w, *p).read_repeats;
  if (const Pane* p = started_by(w, marks.write_epoch)) ++share(part, w, *p).write_repeats;
}

void WorkingSetWindows::reference(uint64_t block_hash, bool write, int64_t time_unix_nano, size_t part) {
  PartShares& ps = part_shares(part);
  const int64_t now = std::max(time_unix_nano, latest_unix_nano_);
  latest_unix_nano_ = now;
  ps.last_unix_nano = now;
  for (size_t w = 0; w < kWindows; ++w) roll(w, now);
  if (priority(block_hash) >= threshold_) return;
  const ReuseDistanceStack::Reference r = stack_.reference(block_hash, write, epoch_);
  if (r.first) by_priority_.emplace(priority(block_hash), block_hash);
  const uint32_t bucket = r.first ? 0 : distance_bucket(static_cast<double>(r.distance) * scale_);
  for (size_t w = 0; w < kWindows; ++w) {
    Share& newest = share(ps, w, panes_[w].back());
    ++newest.references;
    newest.weight += scale_;
    if (!write) {
      ++newest.read_references;
      newest.read_weight += scale_;
    }
    if (w == 0 && r.first) newest.first_weight += scale_;
    const Pane* p;
    if (!r.first && (p = started_by(w, r.before.access_epoch())) != nullptr) {
      Share& s = share(ps, w, *p);
      s.hits[bucket] += scale_;
      if (!write) s.read_hits[bucket] += scale_;
      ++s.block_repeats;
    }
    if ((p = started_by(w, write ? r.before.write_epoch : r.before.read_epoch)) != nullptr) {
      Share& s = share(ps, w, *p);
      ++(write ? s.write_repeats : s.read_repeats);
    }
  }
  if (stack_.size() > max_samples_) lower_threshold(by_priority_.top().first, part);
}

void WorkingSetWindows::lower_threshold(uint64_t lowered, size_t part) {
  PartShares& ps = part_shares(part);
  if (lowered >= threshold_) return;
  threshold_ = lowered;
  scale_ = scale_of(lowered, modulus_);
  while (!by_priority_.empty() && by_priority_.top().first >= lowered) {
    // Each held block is queued once (its first reference; it cannot come back
    // once evicted: T only falls), so it is held here.
    const ReuseDistanceStack::Marks marks = stack_.remove(by_priority_.top().second).value();
    by_priority_.pop();
    for (size_t w = 0; w < kWindows; ++w) repeat(ps, w, marks);
  }
}

void WorkingSetWindows::take_shares(tierwise::v1::WorkingSetShares* out, size_t part) {
  PartShares& ps = part_shares(part);
  out->Clear();
  out->set_max_samples(max_samples_);
  out->set_sample_id(sample_id_);
  out->set_sampling_threshold(threshold_);
  out->set_last_reference_unix_nano(static_cast<uint64_t>(ps.last_unix_nano));
  for (const auto& [key, s] : ps.shares) {
    tierwise::v1::WindowShare* o = out->add_shares();
    o->set_window_seconds(key.first);
    o->set_pane_start_unix_nano(static_cast<uint64_t>(key.second));
    o->set_pane_first_unix_nano(static_cast<uint64_t>(s.first_unix_nano));
    o->set_references(s.references);
    o->set_read_references(s.read_references);
    o->set_weight(s.weight);
    o->set_read_weight(s.read_weight);
    o->set_first_weight(s.first_weight);
    for (const auto& [bucket, weight] : s.hits) {
      o->add_hit_buckets(bucket);
      o->add_hit_weights(weight);
    }
    for (const auto& [bucket, weight] : s.read_hits) {
      o->add_read_hit_buckets(bucket);
      o->add_read_hit_weights(weight);
    }
    o->set_block_repeats(s.block_repeats);
    o->set_read_repeats(s.read_repeats);
    o->set_write_repeats(s.write_repeats);
  }
  ps.shares.clear();
  ps.last_unix_nano = 0;
}

std::string WorkingSetWindows::save() const {
  std::string out(kMagic, sizeof kMagic);
  put(out, kVersion);
  put(out, modulus_);
  put(out, threshold_);
  put(out, max_samples_);
  put(out, sample_id_);
  put(out, epoch_);
  for (const std::deque<Pane>& window : panes_) {
    put(out, static_cast<uint32_t>(window.size()));
    for (const Pane& p : window) {
      put(out, p.start_unix_nano);
      put(out, p.epoch);
      put(out, p.first_unix_nano);
    }
  }
  const auto blocks = stack_.by_recency();
  put(out, static_cast<uint32_t>(blocks.size()));
  for (const auto& [key, marks] : blocks) {
    put(out, key);
    put(out, marks.read_epoch);
    put(out, marks.write_epoch);
  }
  put(out, crc(out));
  return out;
}

std::optional<WorkingSetWindows> WorkingSetWindows::restore(std::string_view bytes, uint64_t modulus,
                                                            uint64_t threshold, uint32_t max_samples,
                                                            size_t parts) {
  if (bytes.size() < sizeof kMagic + sizeof(uint32_t) ||
      bytes.substr(0, sizeof kMagic) != std::string_view(kMagic, sizeof kMagic)) {
    return std::nullopt;
  }
  const std::string_view body = bytes.substr(0, bytes.size() - sizeof(uint32_t));
  if (Reader(bytes.substr(body.size())).get<uint32_t>() != crc(body)) return std::nullopt;
  Reader in(body.substr(sizeof kMagic));
  if (in.get<uint32_t>() != kVersion || in.get<uint64_t>() != modulus) return std::nullopt;
  const auto saved_threshold = in.get<uint64_t>();
  if (in.get<uint32_t>() != max_samples || saved_threshold == 0 || saved_threshold > threshold) return std::nullopt;
  WorkingSetWindows w(modulus, saved_threshold, max_samples, parts);
  w.sample_id_ = in.get<uint64_t>();
  w.epoch_ = in.get<int32_t>();
  if (w.epoch_ < 0 || w.epoch_ > ReuseDistanceStack::kMaxEpoch) return std::nullopt;
  for (std::deque<Pane>& window : w.panes_) {
    const auto count = in.get<uint32_t>();
    if (count > kPanes + 1) return std::nullopt;  // a window holds at most W / hop + 1 panes
    for (uint32_t i = 0; i < count && in.ok(); ++i) {
      Pane p{in.get<int64_t>(), in.get<int32_t>(), in.get<int64_t>()};
      if (p.epoch < 0 || p.epoch > w.epoch_) return std::nullopt;
      window.push_back(p);
    }
  }
  const auto blocks = in.get<uint32_t>();
  if (blocks > max_samples) return std::nullopt;
  for (uint32_t i = 0; i < blocks && in.ok(); ++i) {
    const auto key = in.get<uint64_t>();
    ReuseDistanceStack::Marks marks{in.get<int32_t>(), in.get<int32_t>()};
    const auto valid = [&](int32_t e) { return e >= ReuseDistanceStack::kNoEpoch && e <= w.epoch_; };
    if (!in.ok() || w.priority(key) >= saved_threshold || !valid(marks.read_epoch) || !valid(marks.write_epoch) ||
        marks.access_epoch() == ReuseDistanceStack::kNoEpoch || !w.stack_.push(key, marks)) {
      return std::nullopt;
    }
    w.by_priority_.emplace(w.priority(key), key);
  }
  if (!in.done()) return std::nullopt;
  return w;
}

}  // namespace tierwise::sampling
