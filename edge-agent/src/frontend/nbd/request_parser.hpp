// The transmission-phase request parser: a pure function over received bytes
// (no I/O, no allocation), fuzzed by fuzz/nbd_fuzzer.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "frontend/nbd/protocol.hpp"

namespace tierwise::frontend::nbd {

// One request header (NBD spec "Transmission phase: Request message").
struct Request {
  uint16_t flags = 0;   // command flags (kCmdFlag*)
  uint16_t type = 0;    // command (kCmd*)
  uint64_t handle = 0;  // echoed in the reply
  uint64_t offset = 0;  // bytes
  uint32_t length = 0;  // bytes; for NBD_CMD_WRITE also the payload that follows
};

enum class ParseStatus {
  kNeedMore,  // fewer than kRequestHeaderBytes bytes: read more
  kOk,        // `*out` holds the header; kRequestHeaderBytes bytes consumed
  kBadMagic,  // not a request: the stream is out of step, disconnect (hard)
};

// Parses the request header at the start of `in`. A WRITE's payload
// (out->length bytes) follows the header and is not consumed here.
ParseStatus parse_request(std::span<const std::byte> in, Request* out);

// What an export allows: its size and transmission flags.
struct ExportLimits {
  uint64_t size_bytes = 0;
  uint16_t transmission_flags = 0;
};

// Checks a parsed request against the export: returns kOk, or the NBD error
// the reply carries: kEinval for an unknown or unadvertised command, a flag
// the command does not take, a length of 0 (except FLUSH/DISC), an offset or
// length that is not a multiple of kMinBlockBytes, a READ/WRITE longer than
// kMaxPayloadBytes or a range past the end of the export (the spec answers
// out-of-bounds requests with EINVAL); kEperm for a write-type command on a
// read-only export.
uint32_t validate_request(const Request& r, const ExportLimits& limits);

// True when a request's payload cannot be skipped safely and the connection
// must be closed: a WRITE whose length exceeds kMaxPayloadBytes (the server
// will not buffer it; the spec allows a hard disconnect).
bool payload_too_large(const Request& r);

// Maps a negative errno from the data path to an NBD error value (unknown
// errors become kEio).
uint32_t nbd_error_from_errno(int negative_errno);

}  // namespace tierwise::frontend::nbd
