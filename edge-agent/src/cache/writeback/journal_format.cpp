#include "cache/writeback/journal_format.hpp"

#include <isa-l/crc.h>

#include <cstring>

namespace tierwise::cache::writeback {
namespace {

constexpr uint64_t kSuperMagic = 0x3152455055535754ULL;  // "TWSUPER1" little-endian
constexpr uint32_t kRecordMagic = 0x524A5754U;           // "TWJR"
constexpr size_t kSuperCrcAt = 40;
constexpr size_t kHeaderCrcAt = 48;

// Little-endian stores and loads (x86-64 and aarch64 Linux are little-endian;
// memcpy keeps them alignment-safe).
template <typename T>
void put(std::byte* at, T value) {
  std::memcpy(at, &value, sizeof value);
}
template <typename T>
T get(const std::byte* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

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
  put<uint64_t>(s, kSuperMagic);
  put<uint32_t>(s + 8, kFormatVersion);
  put<uint32_t>(s + 12, sb.entry_count);
  put<uint64_t>(s + 16, sb.generation);
  put<uint64_t>(s + 24, sb.watermark);
  put<uint64_t>(s + 32, sb.volume_id);
  put<uint32_t>(s + kSuperCrcAt, crc32c(sector.first(kSuperCrcAt)));
}

std::optional<Superblock> decode_superblock(std::span<const std::byte, kSectorBytes> sector) {
  const std::byte* s = sector.data();
  if (get<uint64_t>(s) != kSuperMagic || get<uint32_t>(s + 8) != kFormatVersion) return {};
  if (get<uint32_t>(s + kSuperCrcAt) != crc32c(sector.first(kSuperCrcAt))) return {};
  Superblock sb;
  sb.entry_count = get<uint32_t>(s + 12);
  sb.generation = get<uint64_t>(s + 16);
  sb.watermark = get<uint64_t>(s + 24);
  sb.volume_id = get<uint64_t>(s + 32);
  if (sb.entry_count == 0) return {};
  return sb;
}

void encode_record(RecordHeader header, std::span<const std::byte> data,
                   std::span<std::byte> entry) {
  header.length = static_cast<uint16_t>(data.size());
  header.data_crc = crc32c(data);
  std::byte* s = entry.data();
  std::memset(s, 0, kSectorBytes);
  put<uint32_t>(s, kRecordMagic);
  put<uint16_t>(s + 4, static_cast<uint16_t>(kFormatVersion));
  put<uint64_t>(s + 8, header.seq);
  put<uint64_t>(s + 16, header.block);
  put<uint16_t>(s + 24, header.offset);
  put<uint16_t>(s + 26, header.length);
  put<uint32_t>(s + 28, header.data_crc);
  put<uint64_t>(s + 32, header.durable_through);
  put<uint64_t>(s + 40, header.volume_id);
  put<uint32_t>(s + kHeaderCrcAt, crc32c(entry.first(kHeaderCrcAt)));
  std::memcpy(s + kSectorBytes, data.data(), data.size());
}

std::optional<RecordHeader> decode_record_header(std::span<const std::byte, kSectorBytes> sector) {
  const std::byte* s = sector.data();
  if (get<uint32_t>(s) != kRecordMagic || get<uint16_t>(s + 4) != kFormatVersion) return {};
  if (get<uint32_t>(s + kHeaderCrcAt) != crc32c(sector.first(kHeaderCrcAt))) return {};
  RecordHeader h;
  h.seq = get<uint64_t>(s + 8);
  h.block = get<uint64_t>(s + 16);
  h.offset = get<uint16_t>(s + 24);
  h.length = get<uint16_t>(s + 26);
  h.data_crc = get<uint32_t>(s + 28);
  h.durable_through = get<uint64_t>(s + 32);
  h.volume_id = get<uint64_t>(s + 40);
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
