#include "replication/protocol.hpp"

#include <algorithm>
#include <cerrno>

#include "cache/writeback/journal_format.hpp"

namespace tierwise::replication {
namespace wb = cache::writeback;

bool record_valid(std::span<const std::byte> record, uint64_t seq) {
  if (record.size() < wb::kSectorBytes) return false;
  const auto h = wb::decode_record_header(record.first<wb::kSectorBytes>());
  return h && h->seq == seq && wb::record_data_intact(*h, record);
}

PeerStep on_owner_frame(PeerSession& session, const Frame& frame, std::string* error) {
  if (frame.type == FrameType::kHello) {
    if (session.greeted) {
      *error = "a second HELLO on one connection";
      return PeerStep::kClose;
    }
    session.volume = frame.value;
    session.greeted = true;
    return PeerStep::kGreet;
  }
  if (!session.greeted) {
    *error = "a frame before HELLO";
    return PeerStep::kClose;
  }
  switch (frame.type) {
    case FrameType::kTrim:
      return PeerStep::kTrim;
    case FrameType::kRecord:
      if (record_valid(frame.payload, frame.value)) return PeerStep::kStore;
      *error = "invalid record " + std::to_string(frame.value);
      return PeerStep::kClose;
    default:
      *error = "an ACK from the owner";
      return PeerStep::kClose;
  }
}

int on_peer_frame(const Frame& frame, uint64_t sent, uint64_t* acked, std::string* error) {
  if (frame.type != FrameType::kAck) {
    *error = "unexpected frame type from a peer";
    return -EBADMSG;
  }
  if (frame.value > sent) {
    *error = "acknowledgement of record " + std::to_string(frame.value) + ", never sent (highest sent " +
             std::to_string(sent) + ")";
    return -EBADMSG;
  }
  *acked = std::max(*acked, frame.value);
  return 0;
}

}  // namespace tierwise::replication
