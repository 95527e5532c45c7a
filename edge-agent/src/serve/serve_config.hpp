// The volumes file of `tierwise-agent serve` (JSON), parsed and checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tierwise::serve {

// One volume: an NBD export backed by a datastore behind a cache tier.
struct VolumeConfig {
  std::string name;        // export name; [A-Za-z0-9._-], 1-64 characters
  std::string datastore;   // regular file (created sparse when missing) or block device
  uint64_t size_bytes = 0; // 0: the datastore's size; else the export's size (a file grows to it)
  uint64_t tier_bytes = 0;      // tier capacity, bytes (multiple of 4096)
  std::string tier_file;        // empty: a RAM tier; else a file or device (NVMe/SSD), O_DIRECT
  std::string policy;           // eviction policy: lru, s3fifo, arc, 2q, sieve; empty: the engine's default
  uint64_t sequential_cutoff_bytes = UINT64_MAX;  // UINT64_MAX: the engine's default; 0: off
  bool write_back = false;          // "mode": "write-back" (needs a tier file/device)
  std::vector<std::string> peers;   // WB+n: "host:port" of `tierwise-agent peer --listen`
  uint32_t journal_entries = 16384; // write-back journal ring entries (4608 bytes each), >= 64
  uint64_t destage_rate_bytes_per_s = 0;  // write-back destager limit, bytes/s; 0: unlimited
  // WB+n ownership lease (docs/write-back.md "Owner loss"): a file on the
  // shared storage every peer can open; empty: "<datastore>.lease".
  std::string lease_file;
  uint32_t lease_ms = 5000;  // the owner renews every lease_ms / 4; peers take over after lease_ms unrenewed
  std::string consumer_cgroup;  // cgroup v2 directory of the volume's consumer; empty: its NBD clients
};

struct ServeConfig {
  std::string listen;  // "unix:<path>" or "tcp:<ipv4>:<port>"; empty: not in the file
  std::vector<VolumeConfig> volumes;
};

// Parses the JSON text of a volumes file:
//   {"listen": "unix:/run/tierwise/nbd.sock",
//    "volumes": [{"name": "vm1", "datastore": "/var/lib/tierwise/vm1.img",
//                 "size": "10GiB", "tier": {"ram": "1GiB"}, "policy": "lru"}]}
// A flash tier is {"file": "/nvme/vm1.tier", "size": "8GiB"} instead of "ram".
// "size" is optional for an existing datastore; "policy" (lru, s3fifo, arc,
// 2q, sieve) and "sequential_cutoff" ("off" or a byte size) default to the engine's.
// "mode" is "write-through" (default) or "write-back"; write-back needs a
// "file" tier and takes optional "peers" (["host:port", ...], WB+n) and
// "journal_entries" (ring entries, 64..1048576; default 16384, 72 MiB) and
// "destage_rate" (a byte size per second, e.g. "64MiB"; default unlimited).
// With "peers", "lease" (the lease file, on storage the peers see; default
// "<datastore>.lease") and "lease_ms" (200..600000; default 5000).
// "consumer_cgroup" (optional, e.g. "/sys/fs/cgroup/machine.slice/vm1.scope")
// names the cgroup v2 directory whose CPU time is the volume's consumer's
// (proto/METRICS.md `tierwise.consumer.cpu.time`; without it, the processes
// attached over a Unix socket); its cpu.stat is read here, so it must exist.
// `origin` names the file in messages. Throws std::invalid_argument naming
// the file, the volume and the field for anything malformed: bad JSON,
// unknown keys, duplicate names, sizes that are not byte sizes ("1GiB") or not
// multiples of 512 (size) / 4096 (tier), a tier with both or neither of "ram"
// and "file", an unknown policy, write-back on a RAM tier, peers or
// journal_entries / destage_rate without write-back, lease / lease_ms without
// peers, a consumer_cgroup without
// a readable cgroup v2 cpu.stat.
ServeConfig parse_serve_config(const std::string& json_text, const std::string& origin);

// Reads and parses the file at `path`; std::invalid_argument when unreadable.
ServeConfig load_serve_config(const std::string& path);

}  // namespace tierwise::serve
