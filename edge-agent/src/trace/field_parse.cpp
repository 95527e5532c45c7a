#include "trace/field_parse.hpp"

#include <charconv>
#include <limits>

namespace tierwise::trace {
namespace {

[[noreturn]] void bad_field(std::string_view field, std::string_view text, std::string_view expected) {
  std::string reason = "field '";
  reason += field;
  reason += "': '";
  reason += text;
  reason += "' is not ";
  reason += expected;
  throw MalformedRecord(reason);
}

uint64_t parse_base(std::string_view text, std::string_view field, int base,
                    std::string_view expected) {
  uint64_t value = 0;
  const char* last = text.data() + text.size();
  auto [end, error] = std::from_chars(text.data(), last, value, base);
  if (text.empty() || error != std::errc() || end != last) bad_field(field, text, expected);
  return value;
}

}  // namespace

size_t split_fields(std::string_view line, std::span<std::string_view> fields) {
  size_t count = 0;
  while (true) {
    size_t comma = line.find(',');
    if (count < fields.size()) fields[count] = line.substr(0, comma);
    ++count;
    if (comma == std::string_view::npos) return count;
    line.remove_prefix(comma + 1);
  }
}

uint64_t parse_uint(std::string_view text, std::string_view field) {
  return parse_base(text, field, 10, "an unsigned integer");
}

uint64_t parse_hex(std::string_view text, std::string_view field) {
  return parse_base(text, field, 16, "a hexadecimal number");
}

int64_t parse_seconds_as_us(std::string_view text, std::string_view field) {
  constexpr std::string_view kExpected = "a non-negative number of seconds";
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  if (whole.empty() || (dot != std::string_view::npos && fraction.empty())) {
    bad_field(field, text, kExpected);
  }
  uint64_t seconds = 0;
  auto [end, error] = std::from_chars(whole.data(), whole.data() + whole.size(), seconds);
  if (error != std::errc() || end != whole.data() + whole.size() ||
      seconds > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) / 1'000'000) {
    bad_field(field, text, kExpected);
  }
  int64_t micros = 0;
  int64_t scale = 100'000;
  for (char c : fraction) {
    if (c < '0' || c > '9') bad_field(field, text, kExpected);
    micros += (c - '0') * scale;
    scale /= 10;
  }
  return static_cast<int64_t>(seconds) * 1'000'000 + micros;
}

uint64_t checked_multiply(uint64_t value, uint64_t factor, std::string_view field) {
  uint64_t product = 0;
  if (__builtin_mul_overflow(value, factor, &product)) {
    throw MalformedRecord("field '" + std::string(field) + "': " + std::to_string(value) +
                          " is too large");
  }
  return product;
}

uint32_t checked_length(uint64_t bytes, std::string_view field) {
  if (bytes == 0 || bytes > std::numeric_limits<uint32_t>::max()) {
    throw MalformedRecord("field '" + std::string(field) + "': length of " +
                          std::to_string(bytes) + " bytes is outside 1 .. 4294967295");
  }
  return static_cast<uint32_t>(bytes);
}

int64_t checked_signed(uint64_t value, std::string_view field) {
  if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    throw MalformedRecord("field '" + std::string(field) + "': " + std::to_string(value) +
                          " is too large");
  }
  return static_cast<int64_t>(value);
}

}  // namespace tierwise::trace
