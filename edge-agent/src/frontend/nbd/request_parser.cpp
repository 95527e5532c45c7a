#include "frontend/nbd/request_parser.hpp"

#include <cerrno>

#include "frontend/nbd/wire.hpp"

namespace tierwise::frontend::nbd {

ParseStatus parse_request(std::span<const std::byte> in, Request* out) {
  if (in.size() < kRequestHeaderBytes) return ParseStatus::kNeedMore;
  const std::byte* p = in.data();
  if (load_be<uint32_t>(p) != kRequestMagic) return ParseStatus::kBadMagic;
  out->flags = load_be<uint16_t>(p + 4);
  out->type = load_be<uint16_t>(p + 6);
  out->handle = load_be<uint64_t>(p + 8);
  out->offset = load_be<uint64_t>(p + 16);
  out->length = load_be<uint32_t>(p + 24);
  return ParseStatus::kOk;
}

namespace {

// Command flags each command takes (spec "Request types"); FUA is valid on
// every command once NBD_FLAG_SEND_FUA is advertised.
uint16_t allowed_flags(uint16_t type) {
  switch (type) {
    case kCmdWriteZeroes:
      return kCmdFlagFua | kCmdFlagNoHole;
    default:
      return kCmdFlagFua;
  }
}

bool advertised(uint16_t type, uint16_t tflags) {
  switch (type) {
    case kCmdRead:
    case kCmdWrite:
    case kCmdDisc:
      return true;
    case kCmdFlush:
      return (tflags & kFlagSendFlush) != 0;
    case kCmdTrim:
      return (tflags & kFlagSendTrim) != 0;
    case kCmdWriteZeroes:
      return (tflags & kFlagSendWriteZeroes) != 0;
    default:
      return false;
  }
}

bool writes(uint16_t type) {
  return type == kCmdWrite || type == kCmdTrim || type == kCmdWriteZeroes;
}

}  // namespace

uint32_t validate_request(const Request& r, const ExportLimits& limits) {
  if (!advertised(r.type, limits.transmission_flags)) return kEinval;
  if ((r.flags & ~allowed_flags(r.type)) != 0) return kEinval;
  if ((r.flags & kCmdFlagFua) != 0 && (limits.transmission_flags & kFlagSendFua) == 0) return kEinval;
  if (r.type == kCmdDisc || r.type == kCmdFlush) return kOk;
  if ((limits.transmission_flags & kFlagReadOnly) != 0 && writes(r.type)) return kEperm;
  if (r.length == 0) return kEinval;
  if (r.offset % kMinBlockBytes != 0 || r.length % kMinBlockBytes != 0) return kEinval;
  if ((r.type == kCmdRead || r.type == kCmdWrite) && r.length > kMaxPayloadBytes) return kEinval;
  if (r.offset > limits.size_bytes || r.length > limits.size_bytes - r.offset) return kEinval;
  return kOk;
}

bool payload_too_large(const Request& r) {
  return r.type == kCmdWrite && r.length > kMaxPayloadBytes;
}

uint32_t nbd_error_from_errno(int negative_errno) {
  switch (-negative_errno) {
    case 0:
      return kOk;
    case EPERM:
    case EACCES:
    case EROFS:
      return kEperm;
    case ENOMEM:
      return kEnomem;
    case EINVAL:
      return kEinval;
    case ENOSPC:
    case EDQUOT:
      return kEnospc;
    case EOVERFLOW:
      return kEoverflow;
    case EOPNOTSUPP:
      return kEnotsup;
    case ESHUTDOWN:
      return kEshutdown;
    default:
      return kEio;
  }
}

}  // namespace tierwise::frontend::nbd
