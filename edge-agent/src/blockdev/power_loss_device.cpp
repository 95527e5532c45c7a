#include "blockdev/power_loss_device.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace tierwise::blockdev {
namespace {

constexpr uint64_t kNever = UINT64_MAX;  // complete tick of a write still in flight
constexpr size_t kReorderPasses = 8;

// Draws without <random>'s distributions, whose results differ between standard
// libraries: a seed then replays the same cut everywhere.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
uint64_t below(std::mt19937_64& rng, uint64_t n) { return n == 0 ? 0 : rng() % n; }

}  // namespace

// One write (or discard) between its submission and the flush that covers it.
struct PowerLossDevice::Write {
  uint64_t offset = 0;
  std::vector<std::byte> data;
  uint64_t submit_tick = 0;
  uint64_t complete_tick = kNever;
  uint64_t completion = 0;  // its place in the completion order, from 1
};

struct PowerLossDevice::Request {
  enum class Kind : uint8_t { kRead, kWrite, kFlush } kind = Kind::kRead;
  void* buf = nullptr;  // reads
  uint64_t offset = 0;
  uint32_t length = 0;
  IoCompletion cb = nullptr;
  void* cb_arg = nullptr;
  std::unique_ptr<Write> write;  // writes
  uint64_t covers = 0;           // flushes: writes completed before it was submitted
};

PowerLossDevice::PowerLossDevice(const PowerLossOptions& options)
    : capacity_(options.capacity_bytes),
      inline_(options.complete_inline),
      rng_(options.seed),
      durable_(options.capacity_bytes),
      current_(options.capacity_bytes) {}

PowerLossDevice::~PowerLossDevice() = default;

int PowerLossDevice::create(const PowerLossOptions& options,
                            std::unique_ptr<PowerLossDevice>* out) {
  if (options.capacity_bytes == 0 || options.capacity_bytes % kSectorBytes != 0) return -EINVAL;
  out->reset(new PowerLossDevice(options));
  return 0;
}

bool PowerLossDevice::valid(uint64_t offset, uint32_t length) const {
  return length > 0 && offset % kSectorBytes == 0 && length % kSectorBytes == 0 &&
         offset < capacity_ && length <= capacity_ - offset;
}

int PowerLossDevice::submit_read(void* buf, uint64_t offset, uint32_t length, IoCompletion cb,
                                 void* cb_arg) {
  if (!valid(offset, length) || reinterpret_cast<uintptr_t>(buf) % kSectorBytes != 0) {
    return -EINVAL;
  }
  auto r = std::make_unique<Request>();
  r->kind = Request::Kind::kRead;
  r->buf = buf;
  r->offset = offset;
  r->length = length;
  r->cb = cb;
  r->cb_arg = cb_arg;
  return enqueue(std::move(r));
}

int PowerLossDevice::submit_write(const void* buf, uint64_t offset, uint32_t length,
                                  IoCompletion cb, void* cb_arg) {
  if (!valid(offset, length) || reinterpret_cast<uintptr_t>(buf) % kSectorBytes != 0) {
    return -EINVAL;
  }
  auto r = std::make_unique<Request>();
  r->kind = Request::Kind::kWrite;
  r->cb = cb;
  r->cb_arg = cb_arg;
  r->write = std::make_unique<Write>();
  r->write->offset = offset;
  const auto* bytes = static_cast<const std::byte*>(buf);
  r->write->data.assign(bytes, bytes + length);
  return enqueue(std::move(r));
}

int PowerLossDevice::submit_discard(uint64_t offset, uint32_t length, IoCompletion cb,
                                    void* cb_arg) {
  if (!valid(offset, length)) return -EINVAL;
  auto r = std::make_unique<Request>();
  r->kind = Request::Kind::kWrite;
  r->cb = cb;
  r->cb_arg = cb_arg;
  r->write = std::make_unique<Write>();
  r->write->offset = offset;
  r->write->data.assign(length, std::byte{0});
  return enqueue(std::move(r));
}

int PowerLossDevice::submit_flush(IoCompletion cb, void* cb_arg) {
  auto r = std::make_unique<Request>();
  r->kind = Request::Kind::kFlush;
  r->cb = cb;
  r->cb_arg = cb_arg;
  r->covers = completions_;
  ++flushes_submitted_;
  return enqueue(std::move(r));
}

int PowerLossDevice::enqueue(std::unique_ptr<Request> r) {
  if (r->write) r->write->submit_tick = ++tick_;
  if (inline_) {
    complete(std::move(r));
  } else {
    queue_.push_back(std::move(r));
  }
  return 0;
}

size_t PowerLossDevice::poll(size_t max) {
  size_t done = 0;
  while (done < max && !queue_.empty()) {
    const size_t i = below(rng_, queue_.size());
    std::swap(queue_[i], queue_.back());
    std::unique_ptr<Request> r = std::move(queue_.back());
    queue_.pop_back();
    complete(std::move(r));  // may submit more
    ++done;
  }
  return done;
}

void PowerLossDevice::complete(std::unique_ptr<Request> r) {
  ++tick_;
  switch (r->kind) {
    case Request::Kind::kRead:
      std::memcpy(r->buf, current_.data() + r->offset, r->length);
      break;
    case Request::Kind::kWrite: {
      Write& w = *r->write;
      w.complete_tick = tick_;
      w.completion = ++completions_;
      std::memcpy(current_.data() + w.offset, w.data.data(), w.data.size());
      volatile_.push_back(std::move(r->write));
      break;
    }
    case Request::Kind::kFlush:
      make_durable(r->covers);
      ++flushes_completed_;
      break;
  }
  r->cb(r->cb_arg, 0);
}

void PowerLossDevice::make_durable(uint64_t completed_through) {
  while (!volatile_.empty() && volatile_.front()->completion <= completed_through) {
    const Write& w = *volatile_.front();
    std::memcpy(durable_.data() + w.offset, w.data.data(), w.data.size());
    volatile_.pop_front();
  }
}

void PowerLossDevice::cut_power(const PowerCut& cut, CutReport* report) {
  CutReport local;
  CutReport& rep = report != nullptr ? *report : local;
  rep = CutReport{};
  std::mt19937_64 rng(cut.seed);
  // The unflushed writes in completion order, then those in flight in
  // submission order: the order a disk that persists in order would follow.
  std::vector<Write*> order;
  for (const auto& w : volatile_) order.push_back(w.get());
  std::vector<Write*> in_flight;
  for (const auto& r : queue_) {
    if (r->write) in_flight.push_back(r->write.get());
  }
  std::sort(in_flight.begin(), in_flight.end(),
            [](const Write* a, const Write* b) { return a->submit_tick < b->submit_tick; });
  order.insert(order.end(), in_flight.begin(), in_flight.end());
  // Adjacent swaps of writes that were in flight together keep every "a
  // completed before b was submitted" pair in order: a random linear extension.
  if (cut.reorder) {
    for (size_t pass = 0; pass < std::min(order.size(), kReorderPasses); ++pass) {
      for (size_t i = 0; i + 1 < order.size(); ++i) {
        const Write* a = order[i];
        const Write* b = order[i + 1];
        const bool ordered = a->complete_tick < b->submit_tick || b->complete_tick < a->submit_tick;
        if (!ordered && (rng() & 1) != 0) std::swap(order[i], order[i + 1]);
      }
    }
  }
  rep.unflushed_writes = order.size();
  for (const Write* w : order) {
    if (unit(rng) >= cut.keep_probability) continue;
    ++rep.kept_writes;
    const size_t sectors = w->data.size() / kSectorBytes;
    std::vector<bool> keep(sectors, true);
    if (sectors > 1 && unit(rng) < cut.tear_probability) {
      ++rep.torn_writes;
      if ((rng() & 1) != 0) {  // a prefix: the sectors the disk reached in order
        const uint64_t prefix = below(rng, sectors);
        for (size_t s = prefix; s < sectors; ++s) keep[s] = false;
      } else {  // any subset: only a sector is atomic
        for (size_t s = 0; s < sectors; ++s) keep[s] = (rng() & 1) != 0;
      }
    }
    for (size_t s = 0; s < sectors; ++s) {
      if (!keep[s]) continue;
      std::memcpy(durable_.data() + w->offset + s * kSectorBytes,
                  w->data.data() + s * kSectorBytes, kSectorBytes);
    }
  }
  rep.dropped_requests = queue_.size();
  queue_.clear();
  volatile_.clear();
  current_ = durable_;
}

int PowerLossDevice::read_durable(uint64_t offset, std::span<std::byte> out) const {
  if (offset > capacity_ || out.size() > capacity_ - offset) return -EINVAL;
  std::memcpy(out.data(), durable_.data() + offset, out.size());
  return 0;
}

}  // namespace tierwise::blockdev
