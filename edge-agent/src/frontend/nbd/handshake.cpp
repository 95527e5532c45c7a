#include "frontend/nbd/handshake.hpp"

#include "frontend/nbd/protocol.hpp"
#include "frontend/nbd/wire.hpp"

namespace tierwise::frontend::nbd {
namespace {

constexpr size_t kOptionHeaderBytes = 16;  // IHAVEOPT, option, length
constexpr size_t kExportNamePadding = 124;  // zeros after NBD_OPT_EXPORT_NAME's reply

void reply_header(std::vector<std::byte>& out, uint32_t opt, uint32_t type, uint32_t length) {
  append_be<uint64_t>(out, kReplyMagic);
  append_be<uint32_t>(out, opt);
  append_be<uint32_t>(out, type);
  append_be<uint32_t>(out, length);
}

void append_bytes(std::vector<std::byte>& out, std::string_view s) {
  const auto* p = reinterpret_cast<const std::byte*>(s.data());
  out.insert(out.end(), p, p + s.size());
}

void info_export(std::vector<std::byte>& out, uint32_t opt, const ExportInfo& e) {
  reply_header(out, opt, kRepInfo, 12);
  append_be<uint16_t>(out, kInfoExport);
  append_be<uint64_t>(out, e.size_bytes);
  append_be<uint16_t>(out, e.transmission_flags);
}

void info_string(std::vector<std::byte>& out, uint32_t opt, uint16_t type, std::string_view s) {
  reply_header(out, opt, kRepInfo, static_cast<uint32_t>(2 + s.size()));
  append_be<uint16_t>(out, type);
  append_bytes(out, s);
}

void info_block_size(std::vector<std::byte>& out, uint32_t opt) {
  reply_header(out, opt, kRepInfo, 14);
  append_be<uint16_t>(out, kInfoBlockSize);
  append_be<uint32_t>(out, kMinBlockBytes);
  append_be<uint32_t>(out, kPreferredBlockBytes);
  append_be<uint32_t>(out, kMaxPayloadBytes);
}

}  // namespace

void Handshake::greet(std::vector<std::byte>& out) const {
  append_be<uint64_t>(out, kNbdMagic);
  append_be<uint64_t>(out, kOptionMagic);
  append_be<uint16_t>(out, kFlagFixedNewstyle | kFlagNoZeroes);
}

Handshake::Status Handshake::close(std::string why) {
  phase_ = Phase::kDone;
  error_ = std::move(why);
  return Status::kClose;
}

size_t Handshake::find(std::string_view name) const {
  if (name.empty() && !exports_.empty()) return 0;
  for (size_t i = 0; i < exports_.size(); ++i) {
    if (exports_[i].name == name) return i;
  }
  return exports_.size();
}

Handshake::Result Handshake::feed(std::span<const std::byte> in, std::vector<std::byte>& out) {
  Result result;
  while (phase_ != Phase::kDone) {
    const std::span<const std::byte> rest = in.subspan(result.consumed);
    if (phase_ == Phase::kClientFlags) {
      if (rest.size() < 4) return result;
      const uint32_t flags = load_be<uint32_t>(rest.data());
      result.consumed += 4;
      if ((flags & ~(kClientFlagFixedNewstyle | kClientFlagNoZeroes)) != 0) {
        result.status = close("unknown client flags " + std::to_string(flags));
        return result;
      }
      no_zeroes_ = (flags & kClientFlagNoZeroes) != 0;
      phase_ = Phase::kOptions;
      continue;
    }
    if (rest.size() < kOptionHeaderBytes) return result;
    if (load_be<uint64_t>(rest.data()) != kOptionMagic) {
      result.status = close("option without the IHAVEOPT magic");
      return result;
    }
    const uint32_t opt = load_be<uint32_t>(rest.data() + 8);
    const uint32_t length = load_be<uint32_t>(rest.data() + 12);
    if (length > kMaxOptionBytes) {
      result.status = close("option " + std::to_string(opt) + " of " + std::to_string(length) +
                            " bytes (at most " + std::to_string(kMaxOptionBytes) + ")");
      return result;
    }
    if (rest.size() < kOptionHeaderBytes + length) return result;
    result.consumed += kOptionHeaderBytes + length;
    const Status s = option(opt, rest.subspan(kOptionHeaderBytes, length), out, &result.export_index);
    if (s != Status::kNeedMore) {
      result.status = s;
      return result;
    }
  }
  result.status = Status::kClose;
  return result;
}

Handshake::Status Handshake::option(uint32_t opt, std::span<const std::byte> data,
                                    std::vector<std::byte>& out, size_t* export_index) {
  switch (opt) {
    case kOptExportName: {
      const std::string_view name(reinterpret_cast<const char*>(data.data()), data.size());
      const size_t i = find(name);
      // This option cannot fail with a reply: an unknown name ends the connection.
      if (i == exports_.size()) return close("no export named '" + std::string(name) + "'");
      append_be<uint64_t>(out, exports_[i].size_bytes);
      append_be<uint16_t>(out, exports_[i].transmission_flags);
      if (!no_zeroes_) out.insert(out.end(), kExportNamePadding, std::byte{0});
      *export_index = i;
      phase_ = Phase::kDone;
      return Status::kGo;
    }
    case kOptAbort:
      reply_header(out, opt, kRepAck, 0);
      phase_ = Phase::kDone;
      return Status::kClose;
    case kOptList:
      if (!data.empty()) {
        reply_header(out, opt, kRepErrInvalid, 0);
        return Status::kNeedMore;
      }
      for (const ExportInfo& e : exports_) {
        reply_header(out, opt, kRepServer, static_cast<uint32_t>(4 + e.name.size()));
        append_be<uint32_t>(out, static_cast<uint32_t>(e.name.size()));
        append_bytes(out, e.name);
      }
      reply_header(out, opt, kRepAck, 0);
      return Status::kNeedMore;
    case kOptInfo:
    case kOptGo:
      return info_or_go(opt, data, out, export_index);
    default:
      reply_header(out, opt, kRepErrUnsup, 0);
      return Status::kNeedMore;
  }
}

Handshake::Status Handshake::info_or_go(uint32_t opt, std::span<const std::byte> data,
                                        std::vector<std::byte>& out, size_t* export_index) {
  // Data: u32 name length, name, u16 number of info requests, u16 each.
  if (data.size() < 6) {
    reply_header(out, opt, kRepErrInvalid, 0);
    return Status::kNeedMore;
  }
  const uint32_t name_len = load_be<uint32_t>(data.data());
  if (name_len > data.size() - 6) {
    reply_header(out, opt, kRepErrInvalid, 0);
    return Status::kNeedMore;
  }
  const std::string_view name(reinterpret_cast<const char*>(data.data() + 4), name_len);
  const uint16_t requests = load_be<uint16_t>(data.data() + 4 + name_len);
  if (data.size() != 6 + name_len + size_t{requests} * 2) {
    reply_header(out, opt, kRepErrInvalid, 0);
    return Status::kNeedMore;
  }
  const size_t i = find(name);
  if (i == exports_.size()) {
    reply_header(out, opt, kRepErrUnknown, 0);
    return Status::kNeedMore;
  }
  const ExportInfo& e = exports_[i];
  bool want_name = false, want_description = false;
  for (uint16_t k = 0; k < requests; ++k) {
    const uint16_t type = load_be<uint16_t>(data.data() + 6 + name_len + 2 * k);
    want_name |= type == kInfoName;
    want_description |= type == kInfoDescription;
  }
  info_export(out, opt, e);
  if (want_name) info_string(out, opt, kInfoName, e.name);
  if (want_description && !e.description.empty()) {
    info_string(out, opt, kInfoDescription, e.description);
  }
  // Sent whether or not it was asked for (the spec allows it): requests must be
  // multiples of 512 bytes and carry at most 32 MiB.
  info_block_size(out, opt);
  reply_header(out, opt, kRepAck, 0);
  if (opt == kOptInfo) return Status::kNeedMore;
  *export_index = i;
  phase_ = Phase::kDone;
  return Status::kGo;
}

}  // namespace tierwise::frontend::nbd
