// The peer replication protocol's frames: a fixed header with a CRC-32C over
// header and payload, then the payload. Owner and peer speak it over TCP.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tierwise::replication {

/*
 * Frame (version 1; integers little-endian):
 *   0  u32 magic "TWRP"    4 u8 type    5 u8 version (1)    6 u16 reserved (0)
 *   8  u32 payload length (<= kMaxPayload)
 *   12 u64 value (HELLO: volume id; RECORD: sequence number; ACK: highest
 *          sequence number stored; TRIM: watermark; TRIMMED: the watermark
 *          whose TRIM the peer applied)
 *   20 u32 crc32c of bytes [0, 20) then the payload
 *   24 payload
 *
 * Conversation: the owner connects and sends HELLO; then RECORD frames (payload:
 * one journal record, journal_format.hpp encoding, checked again by the peer)
 * and TRIM frames; the peer answers every RECORD with an ACK once it holds the
 * record, and every TRIM with a TRIMMED once it dropped those records (and,
 * with a store, flushed that). A frame that fails its checks ends the connection: the owner then
 * counts the peer as failed.
 * When the owner's tier fails (docs/write-back.md "Tier failure") it sends one
 * DESTAGE(W) to one peer: the peer writes its records with seq > W to the
 * shared datastore in sequence order, flushes it and answers DESTAGED(highest
 * sequence number written, or W when it held none) with an empty payload, or
 * with the reason as its payload (UTF-8) when the datastore refused.
 */
enum class FrameType : uint8_t {
  kHello = 1,
  kRecord = 2,
  kAck = 3,
  kTrim = 4,
  kTrimmed = 5,
  kDestage = 6,
  kDestaged = 7,
};

inline constexpr size_t kFrameHeaderBytes = 24;
inline constexpr uint32_t kMaxPayload = 64 * 1024;

struct Frame {
  FrameType type = FrameType::kHello;
  uint64_t value = 0;
  std::vector<std::byte> payload;
};

// Appends the encoded frame to `out`.
void encode_frame(FrameType type, uint64_t value, std::span<const std::byte> payload,
                  std::vector<std::byte>* out);

// Decodes the frame at the start of `bytes` with the checks read_frame makes.
// Returns the bytes it took (> 0), 0 when `bytes` holds only part of a frame,
// or -EBADMSG (with `error`) for a bad magic, version, reserved field, type,
// length or checksum.
long decode_frame(std::span<const std::byte> bytes, Frame* frame, std::string* error);

// Reads one frame from the connected socket `fd` (blocking). Returns 0, -ECONNRESET
// at end of stream, -EBADMSG (with `error`) as decode_frame, or -errno from
// recv(2).
int read_frame(int fd, Frame* frame, std::string* error);

// Writes all of `bytes` to `fd` (blocking, no SIGPIPE). Returns 0 or -errno.
int write_all(int fd, std::span<const std::byte> bytes);

}  // namespace tierwise::replication
