// Constants of the NBD protocol: magics, options, replies, flags, commands and
// error values, as numbered by the NBD protocol specification
// (github.com/NetworkBlockDevice/nbd, doc/proto.md). Every multi-byte field on
// the wire is big-endian (network byte order).
#pragma once

#include <cstdint>

namespace tierwise::frontend::nbd {

// Handshake (fixed newstyle negotiation).
inline constexpr uint64_t kNbdMagic = 0x4e42444d41474943ULL;      // "NBDMAGIC"
inline constexpr uint64_t kOptionMagic = 0x49484156454F5054ULL;   // "IHAVEOPT"
inline constexpr uint64_t kReplyMagic = 0x0003e889045565a9ULL;    // option reply magic
// Handshake flags (server, 16 bits) and client flags (32 bits).
inline constexpr uint16_t kFlagFixedNewstyle = 1u << 0;
inline constexpr uint16_t kFlagNoZeroes = 1u << 1;
inline constexpr uint32_t kClientFlagFixedNewstyle = 1u << 0;
inline constexpr uint32_t kClientFlagNoZeroes = 1u << 1;

// Options (client -> server during option haggling).
enum Option : uint32_t {
  kOptExportName = 1,
  kOptAbort = 2,
  kOptList = 3,
  kOptPeekExport = 4,
  kOptStartTls = 5,
  kOptInfo = 6,
  kOptGo = 7,
  kOptStructuredReply = 8,
  kOptListMetaContext = 9,
  kOptSetMetaContext = 10,
};

// Option reply types. Errors have bit 31 set.
enum Reply : uint32_t {
  kRepAck = 1,
  kRepServer = 2,
  kRepInfo = 3,
  kRepErrUnsup = (1u << 31) + 1,
  kRepErrPolicy = (1u << 31) + 2,
  kRepErrInvalid = (1u << 31) + 3,
  kRepErrPlatform = (1u << 31) + 4,
  kRepErrTlsReqd = (1u << 31) + 5,
  kRepErrUnknown = (1u << 31) + 6,
  kRepErrShutdown = (1u << 31) + 7,
  kRepErrBlockSizeReqd = (1u << 31) + 8,
  kRepErrTooBig = (1u << 31) + 9,
};

// Information types of NBD_REP_INFO (NBD_OPT_INFO / NBD_OPT_GO).
enum Info : uint16_t {
  kInfoExport = 0,
  kInfoName = 1,
  kInfoDescription = 2,
  kInfoBlockSize = 3,
};

// Transmission flags (16 bits, per export).
inline constexpr uint16_t kFlagHasFlags = 1u << 0;
inline constexpr uint16_t kFlagReadOnly = 1u << 1;
inline constexpr uint16_t kFlagSendFlush = 1u << 2;
inline constexpr uint16_t kFlagSendFua = 1u << 3;
inline constexpr uint16_t kFlagRotational = 1u << 4;
inline constexpr uint16_t kFlagSendTrim = 1u << 5;
inline constexpr uint16_t kFlagSendWriteZeroes = 1u << 6;
inline constexpr uint16_t kFlagCanMultiConn = 1u << 8;

// Transmission phase.
inline constexpr uint32_t kRequestMagic = 0x25609513u;
inline constexpr uint32_t kSimpleReplyMagic = 0x67446698u;
inline constexpr size_t kRequestHeaderBytes = 28;  // magic, flags, type, handle, offset, length
inline constexpr size_t kSimpleReplyBytes = 16;    // magic, error, handle

enum CommandType : uint16_t {
  kCmdRead = 0,
  kCmdWrite = 1,
  kCmdDisc = 2,
  kCmdFlush = 3,
  kCmdTrim = 4,
  kCmdCache = 5,
  kCmdWriteZeroes = 6,
  kCmdBlockStatus = 7,
};

// Command flags (16 bits).
inline constexpr uint16_t kCmdFlagFua = 1u << 0;
inline constexpr uint16_t kCmdFlagNoHole = 1u << 1;
inline constexpr uint16_t kCmdFlagDf = 1u << 2;
inline constexpr uint16_t kCmdFlagReqOne = 1u << 3;
inline constexpr uint16_t kCmdFlagFastZero = 1u << 4;

// Error values of replies (the spec's numbering, equal to Linux errno values).
enum Error : uint32_t {
  kOk = 0,
  kEperm = 1,
  kEio = 5,
  kEnomem = 12,
  kEinval = 22,
  kEnospc = 28,
  kEoverflow = 75,
  kEnotsup = 95,
  kEshutdown = 108,
};

// Limits of this server, advertised through NBD_INFO_BLOCK_SIZE: requests are
// multiples of 512 bytes (the cache engine's sector) and carry at most 32 MiB
// of payload (the spec's recommended maximum).
inline constexpr uint32_t kMinBlockBytes = 512;
inline constexpr uint32_t kPreferredBlockBytes = 4096;
inline constexpr uint32_t kMaxPayloadBytes = 32u << 20;
// Longest option payload accepted during the handshake (names are at most
// 4096 bytes; GO adds a few info requests).
inline constexpr uint32_t kMaxOptionBytes = 8192;

}  // namespace tierwise::frontend::nbd
