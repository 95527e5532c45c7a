#include "cache/eviction/ghost_list.hpp"

namespace tierwise::cache::eviction {

void GhostList::unlink(uint32_t node) {
  Node& n = nodes_[node];
  if (n.newer != kNone) nodes_[n.newer].older = n.older; else newest_ = n.older;
  if (n.older != kNone) nodes_[n.older].newer = n.newer; else oldest_ = n.newer;
  map_.erase(n.block);
  free_.push_back(node);
}

void GhostList::push(uint64_t block) {
  if (capacity_ == 0) return;
  if (map_.size() >= capacity_) pop_oldest();
  uint32_t node;
  if (!free_.empty()) {
    node = free_.back();
    free_.pop_back();
  } else {
    node = static_cast<uint32_t>(nodes_.size());
    nodes_.emplace_back();
  }
  nodes_[node] = Node{block, kNone, newest_};
  if (newest_ != kNone) nodes_[newest_].newer = node; else oldest_ = node;
  newest_ = node;
  map_.insert(block, node);
}

bool GhostList::remove(uint64_t block) {
  const uint32_t node = map_.find(block);
  if (node == kNone) return false;
  unlink(node);
  return true;
}

void GhostList::pop_oldest() {
  if (oldest_ != kNone) unlink(oldest_);
}

}  // namespace tierwise::cache::eviction
