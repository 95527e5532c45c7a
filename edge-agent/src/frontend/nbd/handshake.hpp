// The NBD handshake (fixed newstyle negotiation) as a pure state machine: bytes
// from the client in, bytes for the client out, no I/O. Fuzzed by
// fuzz/nbd_fuzzer.cpp together with the request parser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tierwise::frontend::nbd {

// What the handshake tells clients about one export.
struct ExportInfo {
  std::string name;          // export name (NBD_OPT_GO / NBD_OPT_EXPORT_NAME)
  std::string description;   // NBD_INFO_DESCRIPTION; may be empty
  uint64_t size_bytes = 0;   // volume size, bytes
  uint16_t transmission_flags = 0;  // kFlag* (kFlagHasFlags included)
};

/*
 * Lifecycle of a Handshake (one per connection)
 *
 * 1. Construct over the export list (not owned; it outlives the handshake).
 * 2. greet(): appends the server's opening (NBDMAGIC, IHAVEOPT, handshake flags
 *    NBD_FLAG_FIXED_NEWSTYLE | NBD_FLAG_NO_ZEROES) to the output.
 * 3. feed(): hands over every byte received so far that was not consumed yet.
 *    It consumes whole messages only (the client flags, then options), appends
 *    the replies, and returns:
 *      kNeedMore  read more bytes and call again;
 *      kGo        NBD_OPT_GO or NBD_OPT_EXPORT_NAME succeeded: the connection
 *                 enters the transmission phase on export `export_index`; bytes
 *                 after `consumed` are already requests;
 *      kClose     NBD_OPT_ABORT (its ACK is in the output), or a violation that
 *                 ends the connection (`error` names it): send the output, close.
 *    Options: EXPORT_NAME, ABORT, LIST, INFO and GO are served; every other
 *    option (STARTTLS, STRUCTURED_REPLY, meta contexts) is answered
 *    NBD_REP_ERR_UNSUP. The empty export name selects the first export.
 * 4. Destroy at any time.
 */
class Handshake {
 public:
  enum class Status { kNeedMore, kGo, kClose };
  struct Result {
    Status status = Status::kNeedMore;
    size_t consumed = 0;      // bytes of the input taken by this call
    size_t export_index = 0;  // with kGo: index into the export list
  };

  explicit Handshake(std::span<const ExportInfo> exports) : exports_(exports) {}

  void greet(std::vector<std::byte>& out) const;
  Result feed(std::span<const std::byte> in, std::vector<std::byte>& out);

  // Why the handshake ended with kClose (empty after NBD_OPT_ABORT).
  const std::string& error() const { return error_; }

 private:
  enum class Phase { kClientFlags, kOptions, kDone };
  // Handles one complete option; returns kNeedMore to continue haggling.
  Status option(uint32_t opt, std::span<const std::byte> data, std::vector<std::byte>& out,
                size_t* export_index);
  Status info_or_go(uint32_t opt, std::span<const std::byte> data, std::vector<std::byte>& out,
                    size_t* export_index);
  // Export named `name`, or exports_.size() when none.
  size_t find(std::string_view name) const;
  Status close(std::string why);

  std::span<const ExportInfo> exports_;
  Phase phase_ = Phase::kClientFlags;
  bool no_zeroes_ = false;
  std::string error_;
};

}  // namespace tierwise::frontend::nbd
