// libFuzzer target of the WB+n replication protocol (replication/frame.hpp,
// protocol.hpp; issue 19): the frame decoder the peer and the owner read with,
// the peer's rules for an owner's frames and the owner's for a peer's ACKs.
//
// The first input byte picks the mode:
// - even: the rest is a byte stream as read from a socket. Every frame the
//   decoder accepts must be exactly what encode_frame writes for it (so its
//   checksum was right and nothing outside the checksum was read); each is
//   applied to a peer session and to the owner's ACK check.
// - odd: the rest describes a conversation of well-formed frames (HELLO, then
//   RECORDs of real journal records, TRIMs, ACKs) and one byte to flip in each
//   encoded frame. The flipped frame must never be accepted (CRC-32C catches
//   every burst of 32 bits or less), and a RECORD whose journal record carries
//   another sequence than its frame must close the connection.
// Invariants broken abort (__builtin_trap) so libFuzzer reports them.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cache/writeback/journal_format.hpp"
#include "replication/frame.hpp"
#include "replication/protocol.hpp"

namespace {

namespace wb = tierwise::cache::writeback;
using tierwise::replication::decode_frame;
using tierwise::replication::encode_frame;
using tierwise::replication::encode_hello;
using tierwise::replication::Frame;
using tierwise::replication::FrameType;
using tierwise::replication::Hello;
using tierwise::replication::on_owner_frame;
using tierwise::replication::on_peer_frame;
using tierwise::replication::PeerProgress;
using tierwise::replication::PeerSession;
using tierwise::replication::PeerStep;

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// Applies one accepted frame to both sides and checks what they may do with it.
void apply(const Frame& f, PeerSession& session, PeerProgress* progress) {
  std::string error;
  const PeerStep step = on_owner_frame(session, f, &error);
  check((step == PeerStep::kClose) == !error.empty());  // a closed connection says why
  if (step == PeerStep::kStore) {
    check(f.payload.size() >= wb::kSectorBytes);
    const auto h = wb::decode_record_header(std::span<const std::byte>(f.payload).first<wb::kSectorBytes>());
    check(h && h->seq == f.value && wb::record_data_intact(*h, f.payload));
  }
  const PeerProgress before = *progress;
  if (on_peer_frame(f, progress, &error) == 0) {
    check(f.type == FrameType::kAck || f.type == FrameType::kTrimmed || f.type == FrameType::kDestaged);
    check(progress->acked <= progress->sent && progress->acked >= before.acked);
    check(progress->trimmed <= progress->trim_sent && progress->trimmed >= before.trimmed);
    if (f.type == FrameType::kDestaged) {  // one answer to the one DESTAGE asked
      check(before.destage_asked && !before.destage_answered && progress->destage_answered);
      check(progress->destaged_through <= std::max(progress->sent, progress->destage_watermark));
    }
  } else {
    check(progress->acked == before.acked && progress->trimmed == before.trimmed &&
          progress->destage_answered == before.destage_answered);
  }
}

void stream(std::span<const std::byte> bytes) {
  PeerSession session;
  PeerProgress progress;
  progress.sent = bytes.empty() ? 0 : static_cast<uint64_t>(bytes[0]);
  progress.trim_sent = bytes.size() < 2 ? 0 : static_cast<uint64_t>(bytes[1]);
  progress.destage_asked = bytes.size() >= 3 && (static_cast<uint8_t>(bytes[2]) & 1) != 0;
  progress.destage_watermark = progress.trim_sent;
  Frame f;
  std::string error;
  std::vector<std::byte> again;
  while (!bytes.empty()) {
    const long used = decode_frame(bytes, &f, &error);
    if (used <= 0) return;
    again.clear();
    encode_frame(f.type, f.value, f.payload, &again);
    check(again.size() == static_cast<size_t>(used) &&
          std::equal(again.begin(), again.end(), bytes.begin()));
    apply(f, session, &progress);
    bytes = bytes.subspan(static_cast<size_t>(used));
  }
}

// A whole journal record of `seq` whose data is `fill` (one 512-byte sector),
// its header naming `header_seq`.
std::vector<std::byte> record(uint64_t header_seq, std::byte fill) {
  std::vector<std::byte> data(wb::kSectorBytes, fill);
  std::vector<std::byte> entry(wb::kSectorBytes * 2);
  wb::RecordHeader h;
  h.seq = header_seq;
  h.block = static_cast<uint64_t>(fill);
  wb::encode_record(h, data, entry);
  return entry;
}

void conversation(std::span<const std::byte> bytes) {
  PeerSession session;
  uint64_t acked = 0;
  uint64_t trimmed = 0;
  uint64_t seq = 0;
  std::vector<std::byte> encoded;
  Frame f;
  std::string error;
  for (size_t i = 0; i + 2 < bytes.size(); i += 3) {
    const auto op = static_cast<uint8_t>(bytes[i]);
    const auto flip_at = static_cast<uint8_t>(bytes[i + 1]);
    const std::byte fill = bytes[i + 2];
    FrameType type = FrameType::kHello;
    std::vector<std::byte> payload;
    uint64_t value = 42;
    switch (op % 4) {
      case 0: {
        Hello hello;
        hello.epoch = static_cast<uint64_t>(fill);
        hello.lease_ms = 1000;
        hello.datastore = "/shared/volume.img";
        hello.lease_file = "/shared/volume.img.lease";
        encode_hello(hello, &payload);
        if (op % 16 == 4) payload.pop_back();  // one HELLO in four is cut short
        break;
      }
      case 1:
        type = FrameType::kRecord;
        value = ++seq;
        // One record in eight names another sequence than its frame.
        payload = record(op % 32 == 1 ? value + 1 : value, fill);
        break;
      case 2:
        type = FrameType::kTrim;
        value = seq;
        break;
      default:
        type = op % 8 == 7 ? FrameType::kTrimmed : FrameType::kAck;
        value = static_cast<uint64_t>(fill);
        break;
    }
    encoded.clear();
    encode_frame(type, value, payload, &encoded);
    std::vector<std::byte> flipped = encoded;
    flipped[flip_at % flipped.size()] ^= std::byte{static_cast<unsigned char>((op >> 2) | 1)};
    check(decode_frame(flipped, &f, &error) <= 0);  // a changed frame is never accepted
    check(decode_frame(encoded, &f, &error) == static_cast<long>(encoded.size()));
    const bool greeted = session.greeted;
    const PeerStep step = on_owner_frame(session, f, &error);
    if (type == FrameType::kRecord && greeted) check((step == PeerStep::kStore) == (op % 32 != 1));
    if (type == FrameType::kHello && !greeted) check((step == PeerStep::kGreet) == (op % 16 != 4));
    PeerProgress progress{seq, seq, acked, trimmed};
    if (on_peer_frame(f, &progress, &error) == 0) {
      check(progress.acked <= seq && progress.acked >= acked && progress.trimmed <= seq && progress.trimmed >= trimmed);
    }
    acked = progress.acked;
    trimmed = progress.trimmed;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::span<const std::byte> rest(reinterpret_cast<const std::byte*>(data) + 1, size - 1);
  if (data[0] % 2 == 0) {
    stream(rest);
  } else {
    conversation(rest);
  }
  return 0;
}
