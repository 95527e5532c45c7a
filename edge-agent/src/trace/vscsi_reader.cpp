#include "trace/vscsi_reader.hpp"

#include <cstdint>
#include <cstdio>
#include <limits>

#include "trace/scsi_opcode.hpp"

namespace tierwise::trace {
namespace {

constexpr uint64_t kSectorBytes = 512;

// Byte offsets of the fields of one record version.
struct VscsiLayout {
  size_t record_bytes;
  size_t len;
  size_t cmd;
  size_t ver;
  size_t lbn;
  size_t ts;
  std::optional<size_t> rt;
};

constexpr VscsiLayout kV1{32, 4, 12, 14, 16, 24, std::nullopt};
constexpr VscsiLayout kV2{40, 8, 0, 2, 16, 24, 32};

const VscsiLayout& layout_of(int version) { return version == 1 ? kV1 : kV2; }

template <typename T>
T load_le(const char* bytes) {
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) {
    value |= static_cast<T>(static_cast<unsigned char>(bytes[i])) << (8 * i);
  }
  return value;
}

class VscsiReader final : public TraceReader {
 public:
  VscsiReader(std::unique_ptr<InputBuffer> input, int version, Compression compression,
              const std::string& path, ErrorSink sink)
      : TraceReader(TraceFormat::kVscsi, compression, path, std::move(sink)),
        input_(std::move(input)),
        version_(version),
        layout_(layout_of(version)),
        volume_(volume_name_from_path(path)) {}

  bool next(IoRecord& out) override {
    while (true) {
      std::string_view bytes = input_->take(layout_.record_bytes);
      if (bytes.size() < layout_.record_bytes) {
        end_of_input(bytes.size());
        return false;
      }
      ++record_number_;
      if (decode(bytes.data(), out)) {
        ++records_;
        return true;
      }
    }
  }

 private:
  // Fills `out` from one record; false when the record is skipped (reported
  // as malformed, or a SCSI command without block data).
  bool decode(const char* record, IoRecord& out) {
    uint16_t ver = load_le<uint16_t>(record + layout_.ver);
    if ((ver >> 8) != version_) {
      return malformed("version field 0x" + hex(ver) + " does not match vscsi v" +
                       std::to_string(version_));
    }
    uint32_t length = load_le<uint32_t>(record + layout_.len);
    if (length == 0) return malformed("zero transfer length");
    uint16_t cmd = load_le<uint16_t>(record + layout_.cmd);
    std::optional<Direction> direction = scsi_data_direction(cmd);
    if (!direction) {
      ++skipped_;
      return false;
    }
    uint64_t lbn = load_le<uint64_t>(record + layout_.lbn);
    if (lbn > std::numeric_limits<uint64_t>::max() / kSectorBytes) {
      return malformed("lbn " + std::to_string(lbn) + " is too large");
    }
    uint64_t ts = load_le<uint64_t>(record + layout_.ts);
    if (ts > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return malformed("timestamp " + std::to_string(ts) + " is too large");
    }
    out.time_us = static_cast<int64_t>(ts);
    out.offset_bytes = lbn * kSectorBytes;
    out.length_bytes = length;
    out.direction = *direction;
    out.response_time_us = -1;
    if (layout_.rt) {
      uint64_t rt = load_le<uint64_t>(record + *layout_.rt);
      out.response_time_us = rt > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
                                 ? -1
                                 : static_cast<int64_t>(rt);
    }
    out.volume.assign(volume_);
    return true;
  }

  // Reports, once, a partial last record and a stream error that ended the input.
  void end_of_input(size_t partial_bytes) {
    if (ended_) return;
    ended_ = true;
    const std::string& stream_error = input_->stream_error();
    if (partial_bytes == 0 && stream_error.empty()) return;
    std::string reason;
    if (partial_bytes > 0) {
      reason = "truncated record: " + std::to_string(partial_bytes) + " of " +
               std::to_string(layout_.record_bytes) + " bytes";
    }
    if (!stream_error.empty()) {
      reason += reason.empty() ? "" : "; ";
      reason += stream_error + "; the rest of the file is lost";
    }
    report(TraceError::Unit::kRecord, record_number_ + 1, std::move(reason));
  }

  bool malformed(std::string reason) {
    report(TraceError::Unit::kRecord, record_number_, std::move(reason));
    return false;
  }

  static std::string hex(uint16_t value) {
    char text[8];
    std::snprintf(text, sizeof text, "%04x", value);
    return text;
  }

  std::unique_ptr<InputBuffer> input_;
  int version_;
  const VscsiLayout& layout_;
  std::string volume_;
  uint64_t record_number_ = 0;
  bool ended_ = false;
};

bool versions_match(std::string_view head, const VscsiLayout& layout, int version) {
  size_t records = std::min<size_t>(2, head.size() / layout.record_bytes);
  if (records == 0) return false;
  for (size_t i = 0; i < records; ++i) {
    uint16_t ver = load_le<uint16_t>(head.data() + i * layout.record_bytes + layout.ver);
    if ((ver >> 8) != version) return false;
  }
  return true;
}

}  // namespace

std::optional<int> detect_vscsi_version(std::string_view head) {
  // v2 first, as libCacheSim does: its records are the longer ones.
  if (versions_match(head, kV2, 2)) return 2;
  if (versions_match(head, kV1, 1)) return 1;
  return std::nullopt;
}

std::unique_ptr<TraceReader> make_vscsi_reader(std::unique_ptr<InputBuffer> input, int version,
                                               Compression compression, const std::string& path,
                                               ErrorSink sink) {
  return std::make_unique<VscsiReader>(std::move(input), version, compression, path,
                                       std::move(sink));
}

}  // namespace tierwise::trace
