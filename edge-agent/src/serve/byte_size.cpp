#include "serve/byte_size.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <string>
#include <utility>

namespace tierwise::serve {
namespace {

constexpr std::array<std::pair<std::string_view, uint64_t>, 5> kSuffixes = {{
    {"TiB", uint64_t{1} << 40},
    {"GiB", uint64_t{1} << 30},
    {"MiB", uint64_t{1} << 20},
    {"KiB", uint64_t{1} << 10},
    {"B", 1},
}};

}  // namespace

std::optional<uint64_t> parse_byte_size(std::string_view text) {
  uint64_t unit = 1;
  for (const auto& [suffix, bytes] : kSuffixes) {
    if (text.size() > suffix.size() && text.ends_with(suffix)) {
      text.remove_suffix(suffix.size());
      unit = bytes;
      break;
    }
  }
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value,
                                      std::chars_format::fixed);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  double bytes = std::floor(value * static_cast<double>(unit));
  // 2^64 is exactly representable; anything at or above it does not fit.
  if (!(bytes >= 1.0) || bytes >= 18446744073709551616.0) return std::nullopt;
  return static_cast<uint64_t>(bytes);
}

CLI::Validator byte_size_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (parse_byte_size(text)) return {};
        return "'" + text + "' is not a size (examples: 4096, 512KiB, 16MiB, 1.5GiB)";
      },
      "SIZE", "byte size");
}

}  // namespace tierwise::serve
