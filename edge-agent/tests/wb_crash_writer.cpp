// wb_crash_writer: the process the write-back crash tests kill.
//
// write mode: opens a volume (io_uring datastore and tier files) in write-back
// (recovering the tier's journal first), optionally with peers (WB+n), and
// writes random sector ranges of random blocks at a queue depth, each filled
// with the verifying pattern of its sequence number k (wb_pattern.hpp). Every
// acknowledged write is appended to --log (24 bytes, write(2) before the next
// poll), so a kill -9 can lose at most log lines, never acknowledged data
// the log names. Events (recovery, fallback to write-through) go to --events.
//
// verify mode (--verify): recovers the journal like a restart, reads every
// block through the engine and checks each sector against the log: an intact
// pattern of this block and sector, with k >= the newest acknowledged k that
// covered it (or zeros where nothing acknowledged was written). Prints the
// counts; exits 1 on any error. --verify-datastore reads the datastore file
// directly instead (after a destage). Exit 2: usage or set-up error.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include <CLI/CLI.hpp>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/uring_file_device.hpp"
#include "blockdev/uring_queue.hpp"
#include "cache/cache_engine.hpp"
#include "cache/engine_poll.hpp"
#include "replication/peer_set.hpp"
#include "wb_pattern.hpp"

namespace {

using tierwise::blockdev::AlignedBytes;
using tierwise::blockdev::allocate_aligned;
using tierwise::cache::CacheEngine;
using tierwise::cache::CacheMode;
using tierwise::test::AckedWrite;
using tierwise::test::kPatternSector;
using Clock = std::chrono::steady_clock;

constexpr uint32_t kBlock = 4096;
constexpr uint32_t kSectorsPerBlock = kBlock / kPatternSector;

struct Options {
  std::string datastore, tier, log, events;
  std::vector<std::string> peers;
  uint64_t blocks = 4096;
  uint64_t tier_bytes = 4 << 20;
  uint32_t journal_entries = 256;
  uint64_t rate = 2 << 20;
  uint64_t first_k = 1;
  uint32_t queue_depth = 8;
  uint64_t seed = 1;
  int64_t duration_ms = 0;      // 0: until killed
  int64_t write_through_at_ms = -1;  // switch live to write-through then
  bool verify = false;
  bool verify_datastore = false;
};

struct Volume {
  std::unique_ptr<tierwise::blockdev::UringQueue> queue;
  std::unique_ptr<tierwise::blockdev::UringFileDevice> datastore, tier;
  std::unique_ptr<tierwise::replication::PeerSet> peers;
  std::unique_ptr<CacheEngine> engine;
  FILE* events = nullptr;
  int wake_fd() const { return peers ? peers->wake_fd() : -1; }
  void poll(int wait_ms) { tierwise::cache::poll_engine(*queue, *engine, wake_fd(), wait_ms); }
};

void log_event(FILE* f, std::string_view text) {
  std::cerr << "wb_crash_writer: " << text << '\n';
  if (f == nullptr) return;
  std::fprintf(f, "%.*s\n", static_cast<int>(text.size()), text.data());
  std::fflush(f);
}

int open_volume(const Options& o, Volume* v) {
  if (tierwise::blockdev::UringQueue::create(256, &v->queue) != 0 ||
      tierwise::blockdev::UringFileDevice::open(*v->queue, o.datastore, &v->datastore) != 0 ||
      tierwise::blockdev::UringFileDevice::open(*v->queue, o.tier, &v->tier) != 0) {
    std::cerr << "wb_crash_writer: cannot open the devices\n";
    return 2;
  }
  if (!o.events.empty()) v->events = std::fopen(o.events.c_str(), "a");
  std::string error;
  if (!o.peers.empty() &&
      tierwise::replication::PeerSet::connect(o.peers, 42, {}, std::chrono::milliseconds(500),
                                              &v->peers, &error) != 0) {
    std::cerr << "wb_crash_writer: " << error << '\n';
    return 2;
  }
  tierwise::cache::WriteBackOptions wb;
  wb.volume_id = 42;
  wb.journal_entries = o.journal_entries;
  wb.destage_rate_bytes_per_s = o.rate;
  wb.replicas = v->peers.get();
  wb.poll = [q = v->queue.get()] { q->poll(true); };
  wb.on_event = [f = v->events](std::string_view text) { log_event(f, text); };
  tierwise::cache::writeback::RecoveryReport report;
  if (CacheEngine::open_write_back(*v->datastore, *v->tier, o.tier_bytes, wb, &v->engine, &report,
                                   &error) != 0) {
    std::cerr << "wb_crash_writer: " << error << '\n';
    return 2;
  }
  log_event(v->events, "recovered " + std::to_string(report.records_applied) + " records (" +
                           std::to_string(report.blocks_applied) + " blocks), ignored " +
                           std::to_string(report.torn_ignored) + " torn, next seq " +
                           std::to_string(report.next_seq));
  return 0;
}

struct Writer {
  Writer(const Options& options, Volume& volume, int fd)
      : o(options), v(volume), log_fd(fd), rng(options.seed), next_k(options.first_k) {}

  const Options& o;
  Volume& v;
  int log_fd;
  std::mt19937_64 rng;
  uint64_t next_k;
  uint32_t in_flight = 0;
  std::unordered_set<uint64_t> busy_blocks;
  bool stopping = false;
  uint64_t acked = 0, failed = 0;

  struct Io {
    Writer* w;
    AckedWrite what;
    AlignedBytes buf = allocate_aligned(kBlock, kBlock);
  };
  std::vector<std::unique_ptr<Io>> free_ios;

  static void done(void* arg, const tierwise::cache::IoOutcome& out) {
    auto* io = static_cast<Io*>(arg);
    Writer* w = io->w;
    if (out.status == 0) {
      ++w->acked;
      if (::write(w->log_fd, &io->what, sizeof io->what) != sizeof io->what) std::abort();
    } else {
      ++w->failed;
    }
    w->busy_blocks.erase(io->what.block);
    --w->in_flight;
    w->free_ios.emplace_back(io);
  }

  void submit_one() {
    uint64_t block = 0;
    do {
      block = rng() % o.blocks;
    } while (busy_blocks.contains(block));
    const bool whole = rng() % 2 == 0;
    uint32_t first = 0, end = kSectorsPerBlock;
    if (!whole) {
      first = static_cast<uint32_t>(rng() % kSectorsPerBlock);
      end = first + 1 + static_cast<uint32_t>(rng() % (kSectorsPerBlock - first));
    }
    std::unique_ptr<Io> io;
    if (free_ios.empty()) {
      io = std::make_unique<Io>();
    } else {
      io = std::move(free_ios.back());
      free_ios.pop_back();
    }
    io->w = this;
    io->what = AckedWrite{next_k++, block, first, end};
    for (uint32_t s = first; s < end; ++s) {
      tierwise::test::fill_sector(io->buf.get() + (s - first) * kPatternSector,
                                  {io->what.k, block, s});
    }
    busy_blocks.insert(block);
    ++in_flight;
    Io* raw = io.release();
    const int rc = v.engine->submit(tierwise::trace::Direction::kWrite,
                                    block * kBlock + first * kPatternSector,
                                    (end - first) * kPatternSector, raw->buf.get(), done, raw);
    if (rc != 0) {
      std::cerr << "wb_crash_writer: submit refused: " << std::strerror(-rc) << '\n';
      std::abort();
    }
  }

  int run() {
    const auto start = Clock::now();
    bool switched = false;
    for (;;) {
      const int64_t ms =
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
      if (o.write_through_at_ms >= 0 && ms >= o.write_through_at_ms && !switched) {
        switched = true;
        v.engine->set_mode(CacheMode::kWriteThrough);
      }
      if (o.duration_ms > 0 && ms >= o.duration_ms) stopping = true;
      while (!stopping && in_flight < o.queue_depth) submit_one();
      if (stopping && in_flight == 0 &&
          (!switched || (v.engine->mode() == CacheMode::kWriteThrough && !v.engine->busy()))) {
        break;
      }
      v.poll(1);
    }
    while (v.queue->in_flight() > 0) v.queue->poll(true);  // destages, flushes
    log_event(v.events, "stopped after " + std::to_string(acked) + " acknowledged writes, " +
                            std::to_string(failed) + " failed; destaged " +
                            std::to_string(v.engine->counters().destaged_bytes) + " bytes");
    return failed == 0 ? 0 : 1;
  }
};

// Newest acknowledged k per sector (0: none), from the log.
std::vector<uint64_t> expected_sectors(const Options& o, uint64_t* writes) {
  std::vector<uint64_t> expect(o.blocks * kSectorsPerBlock, 0);
  const int fd = ::open(o.log.c_str(), O_RDONLY | O_CLOEXEC);
  AckedWrite w{};
  while (fd >= 0 && ::read(fd, &w, sizeof w) == sizeof w) {
    ++*writes;
    for (uint32_t s = w.first_sector; s < w.end_sector; ++s) {
      uint64_t& e = expect[w.block * kSectorsPerBlock + s];
      e = std::max(e, w.k);
    }
  }
  if (fd >= 0) ::close(fd);
  return expect;
}

// Checks one block's bytes; returns the number of bad sectors (printing the first few).
uint64_t check_block(uint64_t block, const std::byte* bytes, const std::vector<uint64_t>& expect,
                     uint64_t* reported) {
  static const std::byte zeros[kPatternSector] = {};
  uint64_t errors = 0;
  for (uint32_t s = 0; s < kSectorsPerBlock; ++s) {
    const std::byte* sector = bytes + s * kPatternSector;
    const uint64_t want = expect[block * kSectorsPerBlock + s];
    const auto tag = tierwise::test::read_sector(sector);
    bool ok = false;
    if (std::memcmp(sector, zeros, kPatternSector) == 0) {
      ok = want == 0;
    } else {
      ok = tag && tag->block == block && tag->sector == s && tag->k >= want;
    }
    if (ok) continue;
    ++errors;
    if ((*reported)++ < 10) {
      std::cerr << "wb_crash_writer: block " << block << " sector " << s << ": expected k >= "
                << want << ", found " << (tag ? "k " + std::to_string(tag->k) : "no pattern")
                << '\n';
    }
  }
  return errors;
}

int verify_through_engine(const Options& o) {
  Volume v;
  if (const int rc = open_volume(o, &v); rc != 0) return rc;
  uint64_t writes = 0, errors = 0, reported = 0;
  const auto expect = expected_sectors(o, &writes);
  AlignedBytes buf = allocate_aligned(kBlock, kBlock);
  for (uint64_t b = 0; b < o.blocks; ++b) {
    struct Done {
      bool done = false;
      int status = 0;
    } d;
    auto cb = [](void* arg, const tierwise::cache::IoOutcome& out) {
      auto* dd = static_cast<Done*>(arg);
      dd->done = true;
      dd->status = out.status;
    };
    if (v.engine->submit(tierwise::trace::Direction::kRead, b * kBlock, kBlock, buf.get(), cb, &d) != 0) {
      return 2;
    }
    while (!d.done) v.poll(1);
    if (d.status != 0) ++errors;
    errors += check_block(b, buf.get(), expect, &reported);
  }
  std::cout << "verified blocks=" << o.blocks << " acked_writes=" << writes
            << " errors=" << errors << '\n';
  return errors == 0 ? 0 : 1;
}

int verify_datastore(const Options& o) {
  uint64_t writes = 0, errors = 0, reported = 0;
  const auto expect = expected_sectors(o, &writes);
  const int fd = ::open(o.datastore.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 2;
  std::vector<std::byte> buf(kBlock);
  for (uint64_t b = 0; b < o.blocks; ++b) {
    std::fill(buf.begin(), buf.end(), std::byte{0});
    if (::pread(fd, buf.data(), kBlock, static_cast<off_t>(b * kBlock)) < 0) return 2;
    errors += check_block(b, buf.data(), expect, &reported);
  }
  ::close(fd);
  std::cout << "verified datastore blocks=" << o.blocks << " acked_writes=" << writes
            << " errors=" << errors << '\n';
  return errors == 0 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"Write-back crash test writer and verifier", "wb_crash_writer"};
  app.add_option("--datastore", o.datastore, "datastore file")->required();
  app.add_option("--tier", o.tier, "tier file (journal and cache slots)")->required();
  app.add_option("--log", o.log, "log of acknowledged writes")->required();
  app.add_option("--events", o.events, "file the engine's events are appended to");
  app.add_option("--peer", o.peers, "peer agent host:port (WB+n)");
  app.add_option("--blocks", o.blocks, "volume size in 4 KiB blocks");
  app.add_option("--tier-bytes", o.tier_bytes, "tier capacity in bytes");
  app.add_option("--journal-entries", o.journal_entries, "journal ring entries");
  app.add_option("--rate", o.rate, "destage rate limit, bytes/s (0: unlimited)");
  app.add_option("--first-k", o.first_k, "sequence number of the first write");
  app.add_option("--queue-depth", o.queue_depth, "writes in flight");
  app.add_option("--seed", o.seed, "random seed");
  app.add_option("--duration-ms", o.duration_ms, "stop after this long (0: until killed)");
  app.add_option("--write-through-at-ms", o.write_through_at_ms,
                 "switch live to write-through after this long");
  app.add_flag("--verify", o.verify, "recover and verify through the engine");
  app.add_flag("--verify-datastore", o.verify_datastore, "verify the datastore file");
  CLI11_PARSE(app, argc, argv);
  if (o.verify_datastore) return verify_datastore(o);
  if (o.verify) return verify_through_engine(o);
  Volume v;
  if (const int rc = open_volume(o, &v); rc != 0) return rc;
  const int log_fd = ::open(o.log.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (log_fd < 0) return 2;
  Writer w(o, v, log_fd);
  return w.run();
}
