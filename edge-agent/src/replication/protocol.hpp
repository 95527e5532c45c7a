// The replication protocol's rules (frame.hpp "Conversation"), apart from the
// sockets: what the peer does with each frame an owner sends, and what the
// owner accepts from a peer. ReplicaServer and PeerSet apply them; the
// replication fuzzer (fuzz/replication_fuzzer.cpp) checks them.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "replication/frame.hpp"

namespace tierwise::replication {

// HELLO's payload: the ownership epoch the records belong to and where the
// volume's data lives, so that a peer can take the volume over when its owner
// is gone (docs/write-back.md "Owner loss"). Encoding (little-endian):
//   u64 epoch, u32 lease_ms, u16 n + n bytes datastore path, u16 m + m bytes lease file path
// Paths are at most kMaxHelloPath bytes; the payload has no other bytes.
struct Hello {
  uint64_t epoch = 0;     // 0: no lease (the volume is never taken over)
  uint32_t lease_ms = 0;  // the owner renews its lease at least this often, milliseconds
  std::string datastore;  // the shared datastore as the owner opens it
  std::string lease_file;
};

inline constexpr size_t kMaxHelloPath = 4096;

void encode_hello(const Hello& hello, std::vector<std::byte>* out);
// False when `payload` is not exactly one encoded Hello.
bool decode_hello(std::span<const std::byte> payload, Hello* hello);

// One owner connection as the peer sees it.
struct PeerSession {
  uint64_t volume = 0;  // named by HELLO
  Hello hello;
  bool greeted = false;
};

// What the peer does with a frame from the owner.
enum class PeerStep {
  kGreet,  // HELLO with a valid Hello payload: the session's volume and Hello are set
  kStore,  // RECORD whose payload is a whole journal record of that sequence: store it, then ACK
  kTrim,   // TRIM(W): drop the volume's records with seq <= W
  // DESTAGE(W): write the volume's records with seq > W to its datastore in
  // sequence order, flush it, answer DESTAGED (the owner's tier failed)
  kDestage,
  kClose,  // anything else: close the connection (`error` says why)
};

// Applies `frame` to `session`. A connection opens with exactly one HELLO; a
// RECORD's payload must be a journal record (header and data checksums, both
// CRC-32C: cache/writeback/journal_format.hpp) whose sequence is the frame's;
// an owner never sends ACK.
PeerStep on_owner_frame(PeerSession& session, const Frame& frame, std::string* error);

// True when `record` is a whole journal record of sequence `seq`.
bool record_valid(std::span<const std::byte> record, uint64_t seq);

// What the owner has sent one peer and what that peer confirmed.
struct PeerProgress {
  uint64_t sent = 0;       // highest RECORD sequence sent
  uint64_t trim_sent = 0;  // highest TRIM watermark sent
  uint64_t acked = 0;      // highest sequence acknowledged (ACK)
  uint64_t trimmed = 0;    // highest watermark confirmed (TRIMMED)
  // DESTAGE: asked (with its watermark), answered (DESTAGED: the highest
  // sequence number the peer wrote and, when it failed, the peer's reason).
  bool destage_asked = false;
  uint64_t destage_watermark = 0;
  bool destage_answered = false;
  uint64_t destaged_through = 0;
  std::string destage_error;
};

// The owner's check of a frame from a peer: an ACK of at most `sent`, a
// TRIMMED of at most `trim_sent`, or one DESTAGED answering the DESTAGE asked,
// through at most max(sent, destage_watermark). Returns 0 and raises `acked`
// or `trimmed` (they only move forward) or records the answer, or -EBADMSG
// with `error` for another frame type or a confirmation of something never
// sent: a peer that acknowledged what it cannot hold must not count as a
// replica.
int on_peer_frame(const Frame& frame, PeerProgress* progress, std::string* error);

}  // namespace tierwise::replication
