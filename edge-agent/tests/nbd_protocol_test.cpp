// The NBD front end's pure parts: request parser and validation, handshake
// (fixed newstyle negotiation) and the range lock, byte for byte against the
// NBD protocol specification (github.com/NetworkBlockDevice/nbd doc/proto.md).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "frontend/nbd/handshake.hpp"
#include "frontend/nbd/protocol.hpp"
#include "frontend/nbd/range_lock.hpp"
#include "frontend/nbd/request_parser.hpp"
#include "frontend/nbd/wire.hpp"

namespace nbd = tierwise::frontend::nbd;
using Bytes = std::vector<std::byte>;

namespace {

Bytes request(uint16_t flags, uint16_t type, uint64_t handle, uint64_t offset, uint32_t length) {
  Bytes b;
  nbd::append_be<uint32_t>(b, nbd::kRequestMagic);
  nbd::append_be<uint16_t>(b, flags);
  nbd::append_be<uint16_t>(b, type);
  nbd::append_be<uint64_t>(b, handle);
  nbd::append_be<uint64_t>(b, offset);
  nbd::append_be<uint32_t>(b, length);
  return b;
}

Bytes option(uint32_t opt, const Bytes& data) {
  Bytes b;
  nbd::append_be<uint64_t>(b, nbd::kOptionMagic);
  nbd::append_be<uint32_t>(b, opt);
  nbd::append_be<uint32_t>(b, static_cast<uint32_t>(data.size()));
  b.insert(b.end(), data.begin(), data.end());
  return b;
}

Bytes go_data(const std::string& name, std::vector<uint16_t> infos) {
  Bytes d;
  nbd::append_be<uint32_t>(d, static_cast<uint32_t>(name.size()));
  for (char c : name) d.push_back(static_cast<std::byte>(c));
  nbd::append_be<uint16_t>(d, static_cast<uint16_t>(infos.size()));
  for (uint16_t i : infos) nbd::append_be<uint16_t>(d, i);
  return d;
}

Bytes client_flags(uint32_t flags) {
  Bytes b;
  nbd::append_be<uint32_t>(b, flags);
  return b;
}

// An option reply as the client decodes it.
struct OptionReply {
  uint32_t opt, type;
  Bytes data;
};

std::vector<OptionReply> replies(const Bytes& out) {
  std::vector<OptionReply> r;
  size_t at = 0;
  while (at + 20 <= out.size()) {
    EXPECT_EQ(nbd::load_be<uint64_t>(out.data() + at), nbd::kReplyMagic);
    const uint32_t len = nbd::load_be<uint32_t>(out.data() + at + 16);
    r.push_back({nbd::load_be<uint32_t>(out.data() + at + 8), nbd::load_be<uint32_t>(out.data() + at + 12),
                 Bytes(out.begin() + static_cast<long>(at + 20), out.begin() + static_cast<long>(at + 20 + len))});
    at += 20 + len;
  }
  EXPECT_EQ(at, out.size());
  return r;
}

const std::vector<nbd::ExportInfo> kExports = {
    {"vol-a", "first volume", 1u << 30, nbd::kFlagHasFlags | nbd::kFlagSendFlush},
    {"vol-b", "", 8u << 20, nbd::kFlagHasFlags},
};

}  // namespace

TEST(NbdRequestParser, ParsesHeaderFieldsBigEndian) {
  const Bytes b = request(nbd::kCmdFlagFua, nbd::kCmdWrite, 0x0102030405060708ULL, 1ull << 33, 4096);
  nbd::Request r;
  ASSERT_EQ(nbd::parse_request(b, &r), nbd::ParseStatus::kOk);
  EXPECT_EQ(r.flags, nbd::kCmdFlagFua);
  EXPECT_EQ(r.type, nbd::kCmdWrite);
  EXPECT_EQ(r.handle, 0x0102030405060708ULL);
  EXPECT_EQ(r.offset, 1ull << 33);
  EXPECT_EQ(r.length, 4096u);
}

TEST(NbdRequestParser, ShortInputNeedsMoreAndBadMagicIsRefused) {
  Bytes b = request(0, nbd::kCmdRead, 1, 0, 512);
  nbd::Request r;
  EXPECT_EQ(nbd::parse_request(std::span(b).first(27), &r), nbd::ParseStatus::kNeedMore);
  b[0] = std::byte{0};
  EXPECT_EQ(nbd::parse_request(b, &r), nbd::ParseStatus::kBadMagic);
}

TEST(NbdRequestParser, ValidationFollowsTheSpec) {
  const nbd::ExportLimits rw{1u << 20, nbd::kFlagHasFlags | nbd::kFlagSendFlush | nbd::kFlagSendFua |
                                           nbd::kFlagSendTrim | nbd::kFlagSendWriteZeroes};
  auto check = [&](uint16_t flags, uint16_t type, uint64_t offset, uint32_t length,
                   const nbd::ExportLimits& l) {
    return nbd::validate_request(nbd::Request{flags, type, 7, offset, length}, l);
  };
  EXPECT_EQ(check(0, nbd::kCmdRead, 0, 4096, rw), nbd::kOk);
  EXPECT_EQ(check(0, nbd::kCmdRead, (1u << 20) - 512, 512, rw), nbd::kOk);
  EXPECT_EQ(check(0, nbd::kCmdRead, (1u << 20) - 512, 1024, rw), nbd::kEinval);  // past the end
  EXPECT_EQ(check(0, nbd::kCmdRead, UINT64_MAX - 511, 512, rw), nbd::kEinval);   // overflow
  EXPECT_EQ(check(0, nbd::kCmdRead, 100, 512, rw), nbd::kEinval);                // unaligned
  EXPECT_EQ(check(0, nbd::kCmdWrite, 0, 0, rw), nbd::kEinval);                   // empty
  EXPECT_EQ(check(nbd::kCmdFlagFua, nbd::kCmdWrite, 0, 512, rw), nbd::kOk);
  EXPECT_EQ(check(nbd::kCmdFlagNoHole, nbd::kCmdWrite, 0, 512, rw), nbd::kEinval);
  EXPECT_EQ(check(nbd::kCmdFlagNoHole, nbd::kCmdWriteZeroes, 0, 512, rw), nbd::kOk);
  EXPECT_EQ(check(nbd::kCmdFlagDf, nbd::kCmdRead, 0, 512, rw), nbd::kEinval);  // no structured replies
  EXPECT_EQ(check(0, nbd::kCmdFlush, 0, 0, rw), nbd::kOk);
  EXPECT_EQ(check(0, nbd::kCmdCache, 0, 512, rw), nbd::kEinval);        // not advertised
  EXPECT_EQ(check(0, nbd::kCmdBlockStatus, 0, 512, rw), nbd::kEinval);  // not negotiated
  EXPECT_EQ(check(0, 99, 0, 512, rw), nbd::kEinval);
  const nbd::ExportLimits bare{1u << 20, nbd::kFlagHasFlags | nbd::kFlagReadOnly};
  EXPECT_EQ(check(0, nbd::kCmdTrim, 0, 512, bare), nbd::kEinval);   // TRIM not advertised
  EXPECT_EQ(check(0, nbd::kCmdWrite, 0, 512, bare), nbd::kEperm);   // read-only export
  EXPECT_EQ(check(nbd::kCmdFlagFua, nbd::kCmdRead, 0, 512, bare), nbd::kEinval);  // FUA not sent
  EXPECT_TRUE(nbd::payload_too_large(nbd::Request{0, nbd::kCmdWrite, 1, 0, nbd::kMaxPayloadBytes + 512}));
  EXPECT_FALSE(nbd::payload_too_large(nbd::Request{0, nbd::kCmdWriteZeroes, 1, 0, 1u << 31}));
}

TEST(NbdRequestParser, MapsErrnoToNbdErrors) {
  EXPECT_EQ(nbd::nbd_error_from_errno(0), nbd::kOk);
  EXPECT_EQ(nbd::nbd_error_from_errno(-ENOSPC), nbd::kEnospc);
  EXPECT_EQ(nbd::nbd_error_from_errno(-EOPNOTSUPP), nbd::kEnotsup);
  EXPECT_EQ(nbd::nbd_error_from_errno(-EBADF), nbd::kEio);
}

TEST(NbdHandshake, GreetingIsFixedNewstyle) {
  nbd::Handshake h(kExports);
  Bytes out;
  h.greet(out);
  ASSERT_EQ(out.size(), 18u);
  EXPECT_EQ(std::memcmp(out.data(), "NBDMAGICIHAVEOPT", 16), 0);
  EXPECT_EQ(nbd::load_be<uint16_t>(out.data() + 16), nbd::kFlagFixedNewstyle | nbd::kFlagNoZeroes);
}

TEST(NbdHandshake, ListInfoThenGo) {
  nbd::Handshake h(kExports);
  Bytes in = client_flags(nbd::kClientFlagFixedNewstyle | nbd::kClientFlagNoZeroes);
  for (const Bytes& o : {option(nbd::kOptList, {}), option(nbd::kOptInfo, go_data("vol-b", {nbd::kInfoName})),
                         option(nbd::kOptStructuredReply, {}),
                         option(nbd::kOptGo, go_data("vol-a", {nbd::kInfoBlockSize, nbd::kInfoDescription}))}) {
    in.insert(in.end(), o.begin(), o.end());
  }
  const Bytes trailing = request(0, nbd::kCmdRead, 1, 0, 512);
  in.insert(in.end(), trailing.begin(), trailing.end());
  Bytes out;
  const nbd::Handshake::Result r = h.feed(in, out);
  ASSERT_EQ(r.status, nbd::Handshake::Status::kGo);
  EXPECT_EQ(r.export_index, 0u);
  EXPECT_EQ(r.consumed, in.size() - trailing.size());  // the request is left for the parser
  const std::vector<OptionReply> rep = replies(out);
  ASSERT_EQ(rep.size(), 12u);
  // LIST: one NBD_REP_SERVER per export, then ACK.
  EXPECT_EQ(rep[0].type, nbd::kRepServer);
  EXPECT_EQ(nbd::load_be<uint32_t>(rep[0].data.data()), 5u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(rep[0].data.data() + 4), 5), "vol-a");
  EXPECT_EQ(rep[1].type, nbd::kRepServer);
  EXPECT_EQ(rep[2].type, nbd::kRepAck);
  // INFO vol-b: export (size, flags), name, block size, ACK.
  EXPECT_EQ(rep[3].type, nbd::kRepInfo);
  EXPECT_EQ(nbd::load_be<uint16_t>(rep[3].data.data()), nbd::kInfoExport);
  EXPECT_EQ(nbd::load_be<uint64_t>(rep[3].data.data() + 2), 8u << 20);
  EXPECT_EQ(nbd::load_be<uint16_t>(rep[4].data.data()), nbd::kInfoName);
  EXPECT_EQ(nbd::load_be<uint16_t>(rep[5].data.data()), nbd::kInfoBlockSize);
  EXPECT_EQ(nbd::load_be<uint32_t>(rep[5].data.data() + 2), nbd::kMinBlockBytes);
  EXPECT_EQ(rep[6].type, nbd::kRepAck);
  // STRUCTURED_REPLY is not supported.
  EXPECT_EQ(rep[7].type, nbd::kRepErrUnsup);
  // GO vol-a: export, description, block size, ACK.
  EXPECT_EQ(rep[8].opt, nbd::kOptGo);
  EXPECT_EQ(nbd::load_be<uint16_t>(rep[8].data.data() + 10), kExports[0].transmission_flags);
  EXPECT_EQ(nbd::load_be<uint16_t>(rep[9].data.data()), nbd::kInfoDescription);
  EXPECT_EQ(rep[11].type, nbd::kRepAck);
}

TEST(NbdHandshake, OptionsSplitAcrossReadsAreReassembled) {
  nbd::Handshake h(kExports);
  Bytes in = client_flags(nbd::kClientFlagFixedNewstyle);
  const Bytes go = option(nbd::kOptGo, go_data("vol-b", {}));
  in.insert(in.end(), go.begin(), go.end());
  Bytes out;
  size_t consumed = 0;
  nbd::Handshake::Result r;
  for (size_t end = 1; end <= in.size(); ++end) {  // one byte at a time
    r = h.feed(std::span(in).subspan(consumed, end - consumed), out);
    consumed += r.consumed;
    if (r.status != nbd::Handshake::Status::kNeedMore) break;
  }
  EXPECT_EQ(r.status, nbd::Handshake::Status::kGo);
  EXPECT_EQ(r.export_index, 1u);
  EXPECT_EQ(consumed, in.size());
}

TEST(NbdHandshake, UnknownExportAndBadOptionsAreAnsweredWithErrors) {
  nbd::Handshake h(kExports);
  Bytes in = client_flags(nbd::kClientFlagFixedNewstyle);
  Bytes bad_go = go_data("vol-a", {});
  bad_go.pop_back();  // length disagrees with the info count
  for (const Bytes& o : {option(nbd::kOptGo, go_data("nope", {})), option(nbd::kOptList, {std::byte{1}}),
                         option(nbd::kOptInfo, bad_go), option(nbd::kOptAbort, {})}) {
    in.insert(in.end(), o.begin(), o.end());
  }
  Bytes out;
  const nbd::Handshake::Result r = h.feed(in, out);
  EXPECT_EQ(r.status, nbd::Handshake::Status::kClose);
  EXPECT_TRUE(h.error().empty());  // an orderly abort
  const std::vector<OptionReply> rep = replies(out);
  ASSERT_EQ(rep.size(), 4u);
  EXPECT_EQ(rep[0].type, nbd::kRepErrUnknown);
  EXPECT_EQ(rep[1].type, nbd::kRepErrInvalid);
  EXPECT_EQ(rep[2].type, nbd::kRepErrInvalid);
  EXPECT_EQ(rep[3].type, nbd::kRepAck);
}

TEST(NbdHandshake, ExportNameEntersTransmissionOrCloses) {
  {
    nbd::Handshake h(kExports);
    Bytes in = client_flags(nbd::kClientFlagFixedNewstyle);  // zeroes wanted
    const Bytes o = option(nbd::kOptExportName, {std::byte{'v'}, std::byte{'o'}, std::byte{'l'},
                                                 std::byte{'-'}, std::byte{'b'}});
    in.insert(in.end(), o.begin(), o.end());
    Bytes out;
    const nbd::Handshake::Result r = h.feed(in, out);
    EXPECT_EQ(r.status, nbd::Handshake::Status::kGo);
    ASSERT_EQ(out.size(), 8u + 2u + 124u);
    EXPECT_EQ(nbd::load_be<uint64_t>(out.data()), 8u << 20);
  }
  {
    nbd::Handshake h(kExports);
    Bytes in = client_flags(nbd::kClientFlagFixedNewstyle);
    const Bytes o = option(nbd::kOptExportName, {std::byte{'x'}});
    in.insert(in.end(), o.begin(), o.end());
    Bytes out;
    EXPECT_EQ(h.feed(in, out).status, nbd::Handshake::Status::kClose);
    EXPECT_NE(h.error().find("no export named 'x'"), std::string::npos);
  }
}

TEST(NbdHandshake, ProtocolViolationsClose) {
  for (const Bytes& in : {client_flags(1u << 7),  // unknown client flag
                          [] {
                            Bytes b = client_flags(1);
                            nbd::append_be<uint64_t>(b, 0x1234);  // no IHAVEOPT magic
                            nbd::append_be<uint64_t>(b, 0);
                            return b;
                          }(),
                          [] {
                            Bytes b = client_flags(1);
                            nbd::append_be<uint64_t>(b, nbd::kOptionMagic);
                            nbd::append_be<uint32_t>(b, nbd::kOptGo);
                            nbd::append_be<uint32_t>(b, nbd::kMaxOptionBytes + 1);  // too long
                            return b;
                          }()}) {
    nbd::Handshake h(kExports);
    Bytes out;
    EXPECT_EQ(h.feed(in, out).status, nbd::Handshake::Status::kClose);
    EXPECT_FALSE(h.error().empty());
  }
}

TEST(NbdRangeLock, OverlappingRangesWaitInArrivalOrder) {
  nbd::RangeLock lock;
  nbd::RangeLock::Range a{0, 3}, b{2, 2}, c{10, 12}, d{3, 5}, e{6, 6};
  EXPECT_TRUE(lock.acquire(&a));
  EXPECT_FALSE(lock.acquire(&b));  // shares block 2 with a
  EXPECT_TRUE(lock.acquire(&c));   // disjoint
  EXPECT_FALSE(lock.acquire(&d));  // shares block 3 with a
  EXPECT_TRUE(lock.acquire(&e));   // disjoint from held and waiting ranges
  std::vector<nbd::RangeLock::Range*> granted;
  lock.release(&c, &granted);
  EXPECT_TRUE(granted.empty());
  lock.release(&a, &granted);
  ASSERT_EQ(granted.size(), 2u);  // b and d do not overlap each other
  EXPECT_EQ(granted[0], &b);
  EXPECT_EQ(granted[1], &d);
  EXPECT_EQ(lock.held(), 3u);
  EXPECT_EQ(lock.waiting(), 0u);
}

TEST(NbdRangeLock, ALaterRangeQueuesBehindAnOverlappingWaiter) {
  nbd::RangeLock lock;
  nbd::RangeLock::Range a{0, 0}, b{0, 1}, c{1, 1};
  EXPECT_TRUE(lock.acquire(&a));
  EXPECT_FALSE(lock.acquire(&b));
  EXPECT_FALSE(lock.acquire(&c));  // free of held ranges, but b (waiting) came first
  std::vector<nbd::RangeLock::Range*> granted;
  lock.release(&a, &granted);
  ASSERT_EQ(granted.size(), 1u);
  EXPECT_EQ(granted[0], &b);
  granted.clear();
  lock.release(&b, &granted);
  ASSERT_EQ(granted.size(), 1u);
  EXPECT_EQ(granted[0], &c);
}
