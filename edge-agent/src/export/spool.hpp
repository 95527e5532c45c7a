// A disk spool of export batches that ingest could not take: one file per
// batch in a directory, sent later in the order they were spooled.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "export/http_sender.hpp"

namespace tierwise::exporter {

/*
 * Spool: the batches waiting on disk, oldest first.
 *
 * Files: "<sequence>.batch" with a 20-digit zero-padded sequence, so lexical
 * order is send order. Each file holds three lines and the body:
 *   "tierwise-spool-v1\n<endpoint path: /v1/metrics, /v1/refs or /v1/refs/batches>\n<batch id>\n<body bytes>".
 * A batch is written to "<sequence>.tmp", fsync'ed, renamed to its final name
 * and the directory fsync'ed (crash-safe: a crash leaves either no file or a
 * ".tmp" file, which the next Spool ignores and removes).
 *
 * Bound: the sum of the file sizes stays at most max_bytes. When a new batch
 * would exceed it, the OLDEST spooled batches are deleted first (newest data
 * is the most useful to a capacity planner; ingest sees a gap, not a stall)
 * and counted in dropped(); a batch larger than max_bytes on its own is
 * dropped and counted as well.
 *
 * Not thread-safe: one owner (the HttpSender thread) at a time. Two agents
 * must not share a spool directory.
 */
class Spool {
 public:
  // Opens (creating it and its parents when missing) `directory` and indexes
  // the batches a previous run left there. Throws std::runtime_error naming
  // the directory when it cannot be created or read, and
  // std::invalid_argument when max_bytes is 0.
  Spool(std::string directory, uint64_t max_bytes);

  // Appends `batch` (endpoint, batch id, body; stream is not kept). Returns
  // the number of batches dropped to stay within max_bytes (the new one
  // included when it alone is too large). Throws std::runtime_error when the
  // file cannot be written (disk full, permissions).
  uint64_t push(const Batch& batch);

  // The oldest batch, read from its file (stream = 0). Precondition: !empty().
  // Throws std::runtime_error when the file cannot be read or is not a spool file.
  Batch front() const;
  // Deletes the oldest batch. Precondition: !empty().
  void pop();

  bool empty() const { return files_.empty(); }
  uint64_t size() const { return files_.size(); }  // batches
  uint64_t bytes() const { return bytes_; }         // bytes on disk, headers included
  uint64_t dropped() const { return dropped_; }     // batches dropped at the bound so far
  const std::string& directory() const { return directory_; }

 private:
  std::string path_of(uint64_t sequence, const char* suffix) const;
  void drop_oldest();

  std::string directory_;
  uint64_t max_bytes_;
  std::map<uint64_t, uint64_t> files_;  // sequence -> file size in bytes
  uint64_t bytes_ = 0;
  uint64_t next_sequence_ = 0;
  uint64_t dropped_ = 0;
};

}  // namespace tierwise::exporter
