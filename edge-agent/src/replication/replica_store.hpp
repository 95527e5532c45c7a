// A peer's persistent replicas (`tierwise-agent peer --store DIR`): each
// volume's HELLO, records and trims appended to a log file that is flushed
// before the records are acknowledged, so WB+n survives a crash of the peer
// process and a power cut of owner and peer together (docs/write-back.md
// "Persistent replicas").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "replication/protocol.hpp"

namespace tierwise::replication {

/*
 * Store layout: one file per volume, DIR/<volume id>.replicas, a sequence of
 * entries (integers little-endian):
 *   u32 type (1 HELLO, 2 RECORD, 3 TRIM)   u32 payload length   u64 value
 *   payload   u32 crc32c of the 16 header bytes and the payload
 * HELLO: value = volume id, payload = the Hello encoding (protocol.hpp); a HELLO
 * of a newer epoch starts the file anew. RECORD: value = sequence, payload = the
 * journal record. TRIM: value = watermark. Loading replays the entries; a torn
 * or damaged tail (a crash during an append, never acknowledged: acks follow
 * sync()) is cut off. A file whose records are all trimmed is rewritten with
 * its HELLO alone.
 */
struct StoredVolume {
  Hello hello;
  std::map<uint64_t, std::vector<std::byte>> records;  // seq -> journal record
};

class ReplicaStore {
 public:
  // Opens (creates) `dir` and loads every volume in it. Returns 0 or -errno with `error`.
  static int open(const std::string& dir, ReplicaStore* out, std::map<uint64_t, StoredVolume>* loaded,
                  std::string* error);

  // Appends (buffered in the kernel until sync()). Return 0 or -errno.
  int hello(uint64_t volume, const Hello& hello);  // a newer epoch: the file starts anew
  int record(uint64_t volume, uint64_t seq, std::span<const std::byte> record);
  // `empty`: no record of the volume is left, so its file is rewritten small.
  int trim(uint64_t volume, uint64_t watermark, bool empty, const Hello& hello);
  int drop(uint64_t volume);  // records obsolete or taken over: the file goes
  // fdatasync(2) of every file appended to since the last sync. 0 or -errno.
  int sync();

  ~ReplicaStore();
  ReplicaStore() = default;
  ReplicaStore(ReplicaStore&& other) noexcept;
  ReplicaStore& operator=(ReplicaStore&& other) noexcept;

 private:
  int fd_of(uint64_t volume, bool truncate);
  int append(uint64_t volume, uint32_t type, uint64_t value, std::span<const std::byte> payload);
  std::string path_of(uint64_t volume) const;

  std::string dir_;
  std::map<uint64_t, int> fds_;
  std::set<int> unsynced_;
};

}  // namespace tierwise::replication
