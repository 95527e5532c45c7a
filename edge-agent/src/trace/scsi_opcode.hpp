// SCSI command opcodes that move data (SBC-3: READ/WRITE 6, 10, 12, 16).
#pragma once

#include <cstdint>
#include <optional>

#include "trace/record.hpp"

namespace tierwise::trace {

// Direction of a SCSI data command, or nullopt for commands that move no
// block data (TEST UNIT READY, SYNCHRONIZE CACHE, INQUIRY, ...).
inline std::optional<Direction> scsi_data_direction(uint64_t opcode) {
  switch (opcode) {
    case 0x08:  // READ(6)
    case 0x28:  // READ(10)
    case 0xA8:  // READ(12)
    case 0x88:  // READ(16)
      return Direction::kRead;
    case 0x0A:  // WRITE(6)
    case 0x2A:  // WRITE(10)
    case 0xAA:  // WRITE(12)
    case 0x8A:  // WRITE(16)
      return Direction::kWrite;
    default:
      return std::nullopt;
  }
}

}  // namespace tierwise::trace
