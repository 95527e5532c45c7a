// Parsing of CSV trace fields with std::from_chars. Every function throws
// MalformedRecord with a reason that names the field and the offending text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace tierwise::trace {

// A record that cannot be decoded; what() is the reason (no file/line).
class MalformedRecord : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Splits `line` at commas into `fields` (no quoting: no trace format here uses
// it). Returns the number of fields in the line, which may exceed
// fields.size(); only the first fields.size() are stored.
size_t split_fields(std::string_view line, std::span<std::string_view> fields);

// Decimal unsigned integer (digits only).
uint64_t parse_uint(std::string_view text, std::string_view field);

// Hexadecimal unsigned integer without prefix ("2a").
uint64_t parse_hex(std::string_view text, std::string_view field);

// Non-negative decimal seconds ("1456095145.133076000", "0.000806", "1538323199")
// converted exactly to microseconds; digits below 1 µs are truncated.
int64_t parse_seconds_as_us(std::string_view text, std::string_view field);

// value * factor, throwing when the product does not fit in 64 bits
// (e.g. a sector number too large to be a byte offset).
uint64_t checked_multiply(uint64_t value, uint64_t factor, std::string_view field);

// A transfer length in bytes: 1 .. 2^32 - 1.
uint32_t checked_length(uint64_t bytes, std::string_view field);

// The value as a signed 64-bit number (time stamps), throwing above INT64_MAX.
int64_t checked_signed(uint64_t value, std::string_view field);

}  // namespace tierwise::trace
