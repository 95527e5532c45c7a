#include "cache/writeback/journal_format.hpp"

#include <isa-l/crc.h>

#include <cstring>

#include "common/little_endian.hpp"

namespace tierwise::cache::writeback {
namespace {

constexpr uint64_t kSuperMagic = 0x3152455055535754ULL;  // "TWSUPER1" little-endian
constexpr uint32_t kRecordMagic = 0x524A5754U;           // "TWJR"
constexpr size_t kSuperCrcAtV1 = 40;  // version 1: no epoch
constexpr size_t kSuperCrcAt = 48;
constexpr size_t kHeaderCrcAt = 48;

using common::load_le;
using common::store_le;

}  // namespace

TierLayout TierLayout::for_entries(uint32_t entry_count) {
  TierLayout layout;
  layout.entry_count = entry_count;
  const uint64_t ring_end = kRingOffset + uint64_t{entry_count} * kEntryBytes;
  layout.slot_base = (ring_end + kBlockBytes - 1) / kBlockBytes * kBlockBytes;
  return layout;
}

uint32_t crc32c(std::span<const std::byte> bytes, uint32_t previous) {
  // ISA-L's crc32_iscsi works on the register without the final inversion, and
  // takes a non-const pointer but only reads it.
  auto* p = reinterpret_cast<unsigned char*>(const_cast<std::byte*>(bytes.data()));
  return ~crc32_iscsi(p, static_cast<int>(bytes.size()), ~previous);
}

void encode_superblock(const Superblock& sb, std::span<std::byte, kSectorBytes> sector) {
  std::memset(sector.data(), 0, sector.size());
  std::byte* s = sector.data();
  store_le<uint64_t>(s, kSuperMagic);
  store_le<uint32_t>(s + 8, kSuperblockVersion);
  store_le<uint32_t>(s + 12, sb.entry_count);
  store_le<uint64_t>(s + 16, sb.generation);
  store_le<uint64_t>(s + 24, sb.watermark);
  store_le<uint64_t>(s + 32, sb.volume_id);
  store_le<uint64_t>(s + 40, sb.epoch);
  store_le<uint32_t>(s + kSuperCrcAt, crc32c(sector.first(kSuperCrcAt)));
}

std::optional<Superblock> decode_superblock(std::span<const std::byte, kSectorBytes> sector) {
  const std::byte* s = sector.data();
  if (load_le<uint64_t>(s) != kSuperMagic) return {};
  const uint32_t version = load_le<uint32_t>(s + 8);
  if (version != 1 && version != kSuperblockVersion) return {};
  const size_t crc_at = version == 1 ? kSuperCrcAtV1 : kSuperCrcAt;
  if (load_le<uint32_t>(s + crc_at) != crc32c(sector.first(crc_at))) return {};
  Superblock sb;
  sb.epoch = version == 1 ? 0 : load_le<uint64_t>(s + 40);
  sb.entry_count = load_le<uint32_t>(s + 12);
  sb.generation = load_le<uint64_t>(s + 16);
  sb.watermark = load_le<uint64_t>(s + 24);
  sb.volume_id = load_le<uint64_t>(s + 32);
  if (sb.entry_count == 0) return {};
  return sb;
}

void encode_record(RecordHeader header, std::span<const std::byte> data,
                   std::span<std::byte> entry) {
  header.length = static_cast<uint16_t>(data.size());
  header.data_crc = crc32c(data);
  std::byte* s = entry.data();
  std::memset(s, 0, kSectorBytes);
  store_le<uint32_t>(s, kRecordMagic);
  store_le<uint16_t>(s + 4, static_cast<uint16_t>(kFormatVersion));
  store_le<uint64_t>(s + 8, header.seq);
  store_le<uint64_t>(s + 16, header.block);
  store_le<uint16_t>(s + 24, header.offset);
  store_le<uint16_t>(s + 26, header.length);
  store_le<uint32_t>(s + 28, header.data_crc);
  store_le<uint64_t>(s + 32, header.durable_through);
  store_le<uint64_t>(s + 40, header.volume_id);
  store_le<uint32_t>(s + kHeaderCrcAt, crc32c(entry.first(kHeaderCrcAt)));
  std::memcpy(s + kSectorBytes, data.data(), data.size());
}

std::optional<RecordHeader> decode_record_header(std::span<const std::byte, kSectorBytes> sector) {
  const std::byte* s = sector.data();
  if (load_le<uint32_t>(s) != kRecordMagic || load_le<uint16_t>(s + 4) != kFormatVersion) return {};
  if (load_le<uint32_t>(s + kHeaderCrcAt) != crc32c(sector.first(kHeaderCrcAt))) return {};
  RecordHeader h;
  h.seq = load_le<uint64_t>(s + 8);
  h.block = load_le<uint64_t>(s + 16);
  h.offset = load_le<uint16_t>(s + 24);
  h.length = load_le<uint16_t>(s + 26);
  h.data_crc = load_le<uint32_t>(s + 28);
  h.durable_through = load_le<uint64_t>(s + 32);
  h.volume_id = load_le<uint64_t>(s + 40);
  const bool sane = h.seq != 0 && h.length != 0 && h.length % kSectorBytes == 0 &&
                    h.offset % kSectorBytes == 0 && h.offset + h.length <= kBlockBytes;
  if (!sane) return {};
  return h;
}

bool record_data_intact(const RecordHeader& header, std::span<const std::byte> entry) {
  if (entry.size() < kSectorBytes + size_t{header.length}) return false;
  return crc32c(entry.subspan(kSectorBytes, header.length)) == header.data_crc;
}

}  // namespace tierwise::cache::writeback
