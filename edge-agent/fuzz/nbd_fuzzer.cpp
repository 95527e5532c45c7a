// libFuzzer target: the NBD front end's pure parts (handshake, request parser
// and validation, range lock) on arbitrary client bytes. Beyond the sanitizers
// (address, undefined), it checks three properties and traps when one fails:
//  - feeding the handshake all at once or split at any point gives the same
//    replies, the same outcome and the same bytes consumed;
//  - a request that validates lies inside the export and obeys the
//    advertised block size limits;
//  - the range lock never holds two overlapping ranges.
// Build and run: bench/nbd/fuzz.sh (10 minutes) or ctest -R nbd_fuzz (15 s).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "frontend/nbd/handshake.hpp"
#include "frontend/nbd/protocol.hpp"
#include "frontend/nbd/range_lock.hpp"
#include "frontend/nbd/request_parser.hpp"

namespace nbd = tierwise::frontend::nbd;

namespace {

const std::vector<nbd::ExportInfo>& exports() {
  static const std::vector<nbd::ExportInfo> e = {
      {"vol-a", "fuzz volume", 64u << 20,
       nbd::kFlagHasFlags | nbd::kFlagSendFlush | nbd::kFlagSendFua | nbd::kFlagSendTrim |
           nbd::kFlagSendWriteZeroes | nbd::kFlagCanMultiConn},
      {"ro", "", 1u << 20, nbd::kFlagHasFlags | nbd::kFlagReadOnly},
  };
  return e;
}

void check(bool ok) {
  if (!ok) __builtin_trap();
}

// Runs the handshake over `in`, delivered in two parts split at `split`.
nbd::Handshake::Result handshake(std::span<const std::byte> in, size_t split, std::vector<std::byte>* out) {
  nbd::Handshake h(exports());
  h.greet(*out);
  nbd::Handshake::Result r = h.feed(in.first(split), *out);
  if (r.status != nbd::Handshake::Status::kNeedMore) return r;
  const size_t first = r.consumed;
  r = h.feed(in.subspan(first), *out);
  r.consumed += first;
  return r;
}

void requests(std::span<const std::byte> in, const nbd::ExportInfo& e) {
  const nbd::ExportLimits limits{e.size_bytes, e.transmission_flags};
  nbd::RangeLock lock;
  std::vector<nbd::RangeLock::Range> ranges(64);
  std::vector<nbd::RangeLock::Range*> held, granted;
  size_t next = 0;
  nbd::Request req;
  while (nbd::parse_request(in, &req) == nbd::ParseStatus::kOk) {
    size_t used = nbd::kRequestHeaderBytes;
    if (req.type == nbd::kCmdWrite && !nbd::payload_too_large(req)) {
      used += std::min<size_t>(req.length, in.size() - used);
    }
    in = in.subspan(used);
    if (nbd::validate_request(req, limits) != nbd::kOk) continue;
    if (req.type == nbd::kCmdFlush || req.type == nbd::kCmdDisc) continue;
    check(req.length > 0 && req.offset + req.length <= e.size_bytes);
    check(req.offset % nbd::kMinBlockBytes == 0 && req.length % nbd::kMinBlockBytes == 0);
    check(req.type != nbd::kCmdRead || req.length <= nbd::kMaxPayloadBytes);
    // Lock the request's 4 KiB blocks; the handle's low bit releases the oldest.
    nbd::RangeLock::Range* r = &ranges[next++ % ranges.size()];
    if (r->owner != nullptr) continue;  // still in use
    *r = {req.offset / 4096, (req.offset + req.length - 1) / 4096, r};
    if (lock.acquire(r)) held.push_back(r);
    if ((req.handle & 1) != 0 && !held.empty()) {
      nbd::RangeLock::Range* done = held.front();
      held.erase(held.begin());
      granted.clear();
      lock.release(done, &granted);
      done->owner = nullptr;
      held.insert(held.end(), granted.begin(), granted.end());
    }
    for (size_t i = 0; i < held.size(); ++i) {
      for (size_t j = i + 1; j < held.size(); ++j) {
        check(held[i]->last < held[j]->first || held[j]->last < held[i]->first);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::span<const std::byte> in(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  const size_t split = static_cast<size_t>(data[0]) % (in.size() + 1);

  std::vector<std::byte> whole_out, split_out;
  const nbd::Handshake::Result whole = handshake(in, in.size(), &whole_out);
  const nbd::Handshake::Result parts = handshake(in, split, &split_out);
  check(whole.status == parts.status && whole.consumed == parts.consumed && whole_out == split_out);
  check(whole.consumed <= in.size());
  if (whole.status == nbd::Handshake::Status::kGo) {
    check(whole.export_index < exports().size());
    requests(in.subspan(whole.consumed), exports()[whole.export_index]);
  }
  requests(in, exports()[0]);  // the transmission phase on its own
  return 0;
}
