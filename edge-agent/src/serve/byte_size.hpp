// Byte sizes on the command line: "16MiB", "1.5GiB", "4096", "512KiB".
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

namespace tierwise::serve {

// Parses a number (integer or decimal) with an optional binary suffix B, KiB,
// MiB, GiB or TiB (powers of 1024); the result is rounded down to whole
// bytes. nullopt when the text is not such a size or is below 1 byte.
std::optional<uint64_t> parse_byte_size(std::string_view text);

// CLI11 validator accepting what parse_byte_size accepts.
CLI::Validator byte_size_validator();

}  // namespace tierwise::serve
