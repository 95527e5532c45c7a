#include "replication/protocol.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "cache/writeback/journal_format.hpp"

namespace tierwise::replication {
namespace wb = cache::writeback;

bool record_valid(std::span<const std::byte> record, uint64_t seq) {
  if (record.size() < wb::kSectorBytes) return false;
  const auto h = wb::decode_record_header(record.first<wb::kSectorBytes>());
  return h && h->seq == seq && wb::record_data_intact(*h, record);
}

namespace {

template <typename T>
void put(std::vector<std::byte>* out, T value) {
  const auto* p = reinterpret_cast<const std::byte*>(&value);
  out->insert(out->end(), p, p + sizeof value);
}

template <typename T>
bool take(std::span<const std::byte>* in, T* value) {
  if (in->size() < sizeof *value) return false;
  std::memcpy(value, in->data(), sizeof *value);
  *in = in->subspan(sizeof *value);
  return true;
}

void put_string(std::vector<std::byte>* out, const std::string& s) {
  put<uint16_t>(out, static_cast<uint16_t>(s.size()));
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  out->insert(out->end(), p, p + s.size());
}

bool take_string(std::span<const std::byte>* in, std::string* s) {
  uint16_t n = 0;
  if (!take(in, &n) || n > kMaxHelloPath || in->size() < n) return false;
  s->assign(reinterpret_cast<const char*>(in->data()), n);
  *in = in->subspan(n);
  return true;
}

}  // namespace

void encode_hello(const Hello& hello, std::vector<std::byte>* out) {
  put<uint64_t>(out, hello.epoch);
  put<uint32_t>(out, hello.lease_ms);
  put_string(out, hello.datastore.substr(0, kMaxHelloPath));
  put_string(out, hello.lease_file.substr(0, kMaxHelloPath));
}

bool decode_hello(std::span<const std::byte> payload, Hello* hello) {
  return take(&payload, &hello->epoch) && take(&payload, &hello->lease_ms) &&
         take_string(&payload, &hello->datastore) && take_string(&payload, &hello->lease_file) &&
         payload.empty();
}

PeerStep on_owner_frame(PeerSession& session, const Frame& frame, std::string* error) {
  if (frame.type == FrameType::kHello) {
    if (session.greeted) {
      *error = "a second HELLO on one connection";
      return PeerStep::kClose;
    }
    if (!decode_hello(frame.payload, &session.hello)) {
      *error = "a HELLO whose payload is not a Hello";
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
    case FrameType::kDestage:
      return PeerStep::kDestage;
    case FrameType::kRecord:
      if (record_valid(frame.payload, frame.value)) return PeerStep::kStore;
      *error = "invalid record " + std::to_string(frame.value);
      return PeerStep::kClose;
    default:
      *error = "an ACK, TRIMMED or DESTAGED from the owner";
      return PeerStep::kClose;
  }
}

int on_peer_frame(const Frame& frame, PeerProgress* progress, std::string* error) {
  if (frame.type == FrameType::kDestaged) {
    const uint64_t limit = std::max(progress->sent, progress->destage_watermark);
    if (!progress->destage_asked || progress->destage_answered || frame.value > limit) {
      *error = "a DESTAGED through " + std::to_string(frame.value) + " that answers no DESTAGE";
      return -EBADMSG;
    }
    progress->destage_answered = true;
    progress->destaged_through = frame.value;
    progress->destage_error.assign(reinterpret_cast<const char*>(frame.payload.data()), frame.payload.size());
    return 0;
  }
  if (frame.type == FrameType::kTrimmed) {
    if (frame.value > progress->trim_sent) {
      *error = "confirmation of a trim through " + std::to_string(frame.value) + ", never sent (highest sent " +
               std::to_string(progress->trim_sent) + ")";
      return -EBADMSG;
    }
    progress->trimmed = std::max(progress->trimmed, frame.value);
    return 0;
  }
  if (frame.type != FrameType::kAck) {
    *error = "unexpected frame type from a peer";
    return -EBADMSG;
  }
  if (frame.value > progress->sent) {
    *error = "acknowledgement of record " + std::to_string(frame.value) + ", never sent (highest sent " +
             std::to_string(progress->sent) + ")";
    return -EBADMSG;
  }
  progress->acked = std::max(progress->acked, frame.value);
  return 0;
}

}  // namespace tierwise::replication
