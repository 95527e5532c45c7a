// An exact LRU cache of a few 4 KiB blocks that counts its hits: the exact
// miss ratio of one small cache size, measured on every block reference of a
// volume (sampled or not). The service anchors its SHARDS miss ratio curve at
// that size (stream-jobs ShardsEstimator; docs/analytics.md): sampling a few
// thousand blocks misjudges how many references the hottest blocks take at
// short reuse distances, an error that shifts the whole curve, and this count
// removes it. Per block reference: a look into a hash chain and a
// move to the front of a circular recency list, where a miss in a full cache
// only moves the head back onto the least recently referenced slot (Mattson, Gecsei, Slutz and Traiger,
// "Evaluation techniques for storage hierarchies", IBM Systems Journal 9(2),
// 1970: a reference hits an LRU cache of c blocks exactly when its stack
// distance is below c). Not thread-safe; 20 bytes per block and a queue of
// 8 KiB.
//
// The data plane queues its references (add()) and the queue runs through the
// cache a thousand at a time: one at a time, between the reactor's socket
// work, each reference found the table's lines in L2 and waited on them; a
// run keeps the table in L1 (docs/analytics.md, "The LRU anchor").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace tierwise::sampling {

class LruAnchor {
 public:
  // 1,024 blocks = 4 MiB: measured on the CloudPhysics trace, anchoring there
  // takes the fixed-size SHARDS error from 0.0055 to 0.0027 (docs/analytics.md).
  static constexpr uint32_t kDefaultBlocks = 1024;

  // `blocks`: the cache's size in 4 KiB blocks, 1 .. 65,535; throws
  // std::invalid_argument outside.
  explicit LruAnchor(uint32_t blocks = kDefaultBlocks);

  // References `block` (a 4 KiB block number): true when it is among the
  // `blocks` most recently referenced distinct blocks (a hit of the LRU cache),
  // which it then heads; else it enters at the head and the least recently
  // referenced block leaves when the cache is full. Inline: the lookup and a
  // hit; a miss goes to miss().
  bool reference(uint64_t block) {
    const size_t bucket = bucket_of(block);
    for (uint16_t s = bucket_head_[bucket]; s != kNone; s = slots_[s].chain_next) {
      if (slots_[s].block == block) {
        if (s != head_) {
          unlink(s);
          insert_before_head(s);
          head_ = s;
        }
        return true;
      }
    }
    miss(block, bucket);
    return false;
  }

  // Queues a reference of `block` for reference(); a full queue runs before the
  // next add() and at take_hits(), so the reference just added is always still
  // queued (take_hits(1) keeps it). Inline: once per block reference of the data plane.
  void add(uint64_t block) {
    if (queued_ == queue_.size()) [[unlikely]] run_queue(queued_);
    queue_[queued_++] = block;
  }

  // Runs the queued references but the last `keep` (0 .. queued, else
  // std::invalid_argument), which stay queued, and returns the hits of every
  // reference run since the previous call: the hits of a span of the stream
  // that ends `keep` references before the last add().
  uint64_t take_hits(size_t keep = 0);

  uint32_t blocks() const { return capacity_; }

 private:
  static constexpr uint16_t kNone = UINT16_MAX;  // no slot

  // One cached block: its number, its neighbours in its hash chain (doubly
  // linked, so the victim leaves its chain without a search) and in the
  // recency list.
  struct Slot {
    uint64_t block;
    uint16_t chain_next, chain_prev;
    uint16_t prev, next;
  };

  size_t bucket_of(uint64_t block) const {
    return static_cast<size_t>((block * 0x9E3779B97F4A7C15ull) >> shift_);  // Fibonacci hashing
  }
  // The recency list is circular: head_ is the most recently referenced
  // block and slots_[head_].prev the least. Unlinks slot `s` (not alone).
  void unlink(uint16_t s) {
    slots_[slots_[s].prev].next = slots_[s].next;
    slots_[slots_[s].next].prev = slots_[s].prev;
  }
  // Links slot `s` between the least recently referenced block and the head;
  // the caller makes it the head.
  void insert_before_head(uint16_t s) {
    const uint16_t tail = slots_[head_].prev;
    slots_[s].prev = tail;
    slots_[s].next = head_;
    slots_[tail].next = s;
    slots_[head_].prev = s;
  }
  // `block` missed; it is not in chain `bucket`. Once the cache is full the
  // least recently referenced block's slot takes it, and since the list is
  // circular that slot becomes the head by moving head_ back one step: no
  // link of the list changes. Inline too: in a random workload nearly every
  // reference misses.
  void miss(uint64_t block, size_t bucket) {
    uint16_t s = 0;
    if (size_ == capacity_) [[likely]] {
      s = slots_[head_].prev;
      const Slot& victim = slots_[s];
      (victim.chain_prev == kNone ? bucket_head_[bucket_of(victim.block)] : slots_[victim.chain_prev].chain_next) =
          victim.chain_next;
      if (victim.chain_next != kNone) slots_[victim.chain_next].chain_prev = victim.chain_prev;
    } else {
      s = static_cast<uint16_t>(size_++);
      if (s == 0) {
        slots_[0].prev = slots_[0].next = 0;
      } else {
        insert_before_head(s);
      }
    }
    Slot& slot = slots_[s];
    slot.block = block;
    slot.chain_prev = kNone;
    slot.chain_next = bucket_head_[bucket];
    if (slot.chain_next != kNone) slots_[slot.chain_next].chain_prev = s;
    bucket_head_[bucket] = s;
    head_ = s;
  }

  // Runs the first `n` queued references through reference(), counting their
  // hits; the rest move to the queue's front.
  void run_queue(size_t n);

  uint32_t capacity_;
  unsigned shift_;
  // Separate chaining (Knuth, TAOCP vol. 3, 6.4), 2 x capacity buckets: each
  // bucket's first slot (kNone: empty).
  std::unique_ptr<uint16_t[]> bucket_head_;
  std::unique_ptr<Slot[]> slots_;
  uint32_t size_ = 0;
  uint16_t head_ = 0;  // most recently referenced (slots_[head_].prev: least); valid once size_ > 0
  std::array<uint64_t, 1024> queue_;        // blocks added, not yet referenced
  size_t queued_ = 0;
  uint64_t hits_ = 0;  // of the references run since the last take_hits()
};

}  // namespace tierwise::sampling
