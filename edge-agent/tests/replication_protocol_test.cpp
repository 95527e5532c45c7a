// The replication protocol apart from the sockets (replication/frame.hpp,
// protocol.hpp): the frame decoder's checks, the peer's rules for an owner's
// frames and the owner's for a peer's acknowledgements.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstddef>
#include <string>
#include <vector>

#include "cache/writeback/journal_format.hpp"
#include "replication/frame.hpp"
#include "replication/protocol.hpp"

namespace tierwise::replication {
namespace {

namespace wb = cache::writeback;

// A whole journal record of `seq`: one 512-byte sector of data at block 7.
std::vector<std::byte> record(uint64_t seq) {
  std::vector<std::byte> data(wb::kSectorBytes, std::byte{0x5a});
  std::vector<std::byte> entry(wb::kSectorBytes + data.size());
  wb::RecordHeader h;
  h.seq = seq;
  h.block = 7;
  h.volume_id = 42;
  wb::encode_record(h, data, entry);
  return entry;
}

Frame frame(FrameType type, uint64_t value, std::vector<std::byte> payload = {}) {
  return Frame{type, value, std::move(payload)};
}

TEST(ReplicationFrame, DecodesWhatItEncodesAndWaitsForTheRest) {
  std::vector<std::byte> bytes;
  encode_frame(FrameType::kRecord, 9, record(9), &bytes);
  encode_frame(FrameType::kTrim, 8, {}, &bytes);
  Frame f;
  std::string error;
  const long first = decode_frame(bytes, &f, &error);
  ASSERT_EQ(first, static_cast<long>(kFrameHeaderBytes + wb::kSectorBytes * 2));
  EXPECT_EQ(f.type, FrameType::kRecord);
  EXPECT_EQ(f.value, 9u);
  EXPECT_EQ(f.payload, record(9));
  const std::span<const std::byte> rest = std::span<const std::byte>(bytes).subspan(static_cast<size_t>(first));
  EXPECT_EQ(decode_frame(rest.first(kFrameHeaderBytes - 1), &f, &error), 0) << "half a header: wait";
  EXPECT_EQ(decode_frame(std::span<const std::byte>(bytes).first(100), &f, &error), 0) << "half a payload: wait";
  ASSERT_EQ(decode_frame(rest, &f, &error), static_cast<long>(kFrameHeaderBytes));
  EXPECT_EQ(f.type, FrameType::kTrim);
}

TEST(ReplicationFrame, RefusesAWrongChecksumReservedFieldTypeOrLength) {
  std::vector<std::byte> good;
  encode_frame(FrameType::kAck, 3, {}, &good);
  const auto refused = [&](size_t at, std::byte value, const std::string& why) {
    std::vector<std::byte> bad = good;
    bad[at] = value;
    Frame f;
    std::string error;
    EXPECT_EQ(decode_frame(bad, &f, &error), -EBADMSG) << why;
    EXPECT_FALSE(error.empty()) << why;
  };
  refused(12, std::byte{4}, "the value changed under its checksum");
  refused(6, std::byte{1}, "a reserved byte set");
  refused(4, std::byte{9}, "an unknown type");
  refused(11, std::byte{0x7f}, "a payload longer than kMaxPayload");
}

std::vector<std::byte> hello_payload(uint64_t epoch) {
  Hello h;
  h.epoch = epoch;
  h.lease_ms = 2000;
  h.datastore = "/shared/vol.img";
  h.lease_file = "/shared/vol.img.lease";
  std::vector<std::byte> out;
  encode_hello(h, &out);
  return out;
}

TEST(ReplicationProtocol, HelloCarriesTheEpochAndWhereTheVolumeLives) {
  Hello h;
  ASSERT_TRUE(decode_hello(hello_payload(7), &h));
  EXPECT_EQ(h.epoch, 7u);
  EXPECT_EQ(h.lease_ms, 2000u);
  EXPECT_EQ(h.datastore, "/shared/vol.img");
  EXPECT_EQ(h.lease_file, "/shared/vol.img.lease");
  std::vector<std::byte> p = hello_payload(7);
  p.push_back(std::byte{0});
  EXPECT_FALSE(decode_hello(p, &h)) << "trailing bytes";
  p.resize(p.size() - 2);
  EXPECT_FALSE(decode_hello(p, &h)) << "cut short";
  PeerSession s;
  std::string error;
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kHello, 42), &error), PeerStep::kClose) << "HELLO without a Hello";
  EXPECT_FALSE(s.greeted);
}

TEST(ReplicationProtocol, ThePeerTakesOneHelloThenRecordsOfTheirOwnSequenceAndTrims) {
  PeerSession s;
  std::string error;
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kRecord, 1, record(1)), &error), PeerStep::kClose) << "before HELLO";
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kHello, 42, hello_payload(3)), &error), PeerStep::kGreet);
  EXPECT_EQ(s.volume, 42u);
  EXPECT_EQ(s.hello.epoch, 3u);
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kRecord, 1, record(1)), &error), PeerStep::kStore);
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kTrim, 1), &error), PeerStep::kTrim);
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kRecord, 2, record(3)), &error), PeerStep::kClose)
      << "a record of another sequence than its frame's";
  std::vector<std::byte> torn = record(2);
  torn.back() ^= std::byte{1};
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kRecord, 2, torn), &error), PeerStep::kClose) << "data checksum";
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kHello, 43, hello_payload(3)), &error), PeerStep::kClose) << "a second HELLO";
  EXPECT_EQ(s.volume, 42u);
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kAck, 1), &error), PeerStep::kClose) << "an owner never acknowledges";
}

TEST(ReplicationProtocol, TheOwnerRefusesAnAcknowledgementOfARecordNeverSent) {
  PeerProgress p;
  p.sent = 5;
  std::string error;
  EXPECT_EQ(on_peer_frame(frame(FrameType::kAck, 5), &p, &error), 0);
  EXPECT_EQ(p.acked, 5u);
  EXPECT_EQ(on_peer_frame(frame(FrameType::kAck, 3), &p, &error), 0);
  EXPECT_EQ(p.acked, 5u) << "acknowledgements only move forward";
  EXPECT_EQ(on_peer_frame(frame(FrameType::kAck, 6), &p, &error), -EBADMSG);
  EXPECT_NE(error.find("never sent"), std::string::npos) << error;
  EXPECT_EQ(p.acked, 5u) << "a refused acknowledgement counts nothing";
  EXPECT_EQ(on_peer_frame(frame(FrameType::kRecord, 1), &p, &error), -EBADMSG);
}

TEST(ReplicationProtocol, TheOwnerTakesATrimConfirmationOnlyOfATrimItSent) {
  PeerProgress p;
  p.trim_sent = 9;
  std::string error;
  EXPECT_EQ(on_peer_frame(frame(FrameType::kTrimmed, 9), &p, &error), 0);
  EXPECT_EQ(p.trimmed, 9u);
  EXPECT_EQ(on_peer_frame(frame(FrameType::kTrimmed, 4), &p, &error), 0);
  EXPECT_EQ(p.trimmed, 9u) << "confirmations only move forward";
  EXPECT_EQ(on_peer_frame(frame(FrameType::kTrimmed, 10), &p, &error), -EBADMSG);
  EXPECT_NE(error.find("never sent"), std::string::npos) << error;
  PeerSession s;
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kHello, 42, hello_payload(1)), &error), PeerStep::kGreet);
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kTrimmed, 1), &error), PeerStep::kClose) << "only peers confirm";
}

TEST(ReplicationProtocol, TheOwnerTakesOneDestagedAnsweringItsDestage) {
  PeerProgress p;
  p.sent = 12;
  std::string error;
  EXPECT_EQ(on_peer_frame(frame(FrameType::kDestaged, 12), &p, &error), -EBADMSG) << "no DESTAGE asked";
  p.destage_asked = true;
  p.destage_watermark = 4;
  EXPECT_EQ(on_peer_frame(frame(FrameType::kDestaged, 13), &p, &error), -EBADMSG) << "beyond every record sent";
  const std::string reason = "datastore /d: Input/output error";
  const auto* text = reinterpret_cast<const std::byte*>(reason.data());
  EXPECT_EQ(on_peer_frame(frame(FrameType::kDestaged, 7, {text, text + reason.size()}), &p, &error), 0);
  EXPECT_TRUE(p.destage_answered);
  EXPECT_EQ(p.destaged_through, 7u);
  EXPECT_EQ(p.destage_error, reason);
  EXPECT_EQ(on_peer_frame(frame(FrameType::kDestaged, 12), &p, &error), -EBADMSG) << "a second answer";
  PeerSession s;
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kHello, 42, hello_payload(1)), &error), PeerStep::kGreet);
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kDestage, 4), &error), PeerStep::kDestage);
  EXPECT_EQ(on_owner_frame(s, frame(FrameType::kDestaged, 4), &error), PeerStep::kClose) << "only peers answer";
}

}  // namespace
}  // namespace tierwise::replication
