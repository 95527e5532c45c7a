// One client connection of the NBD server: handshake, request intake, the
// commands it has in flight and the replies waiting to be sent.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/request_pool.hpp"
#include "cache/cache_engine.hpp"
#include "frontend/nbd/handshake.hpp"
#include "frontend/nbd/range_lock.hpp"
#include "frontend/nbd/request_parser.hpp"
#include "frontend/nbd/volume.hpp"

namespace tierwise::frontend::nbd {

class Connection;

// One request in flight. Records are pooled per connection and keep their
// data buffer (4 KiB aligned, as the datastore's O_DIRECT needs), so a warm
// connection allocates nothing per request.
struct Command {
  Connection* conn = nullptr;
  Request req;
  RangeLock::Range range;     // owner: this record
  blockdev::AlignedBytes buf;
  size_t capacity = 0;        // bytes of buf
  uint64_t zeroed = 0;        // WRITE_ZEROES: bytes written so far
  bool in_flight = false;     // counted in its volume's Volume::in_flight
  std::byte reply[kSimpleReplyBytes];  // a READ's reply header, sent with buf (no copy)
};

// What connections share, owned by the server (one reactor thread).
struct ServerContext {
  std::vector<Volume>* volumes = nullptr;
  std::vector<ExportInfo>* infos = nullptr;  // volumes' ExportInfo, for handshakes
  IoObserver* observer = nullptr;            // may be null (telemetry off); outlives the connections
  std::vector<Command*>* ready = nullptr;    // commands granted by a range lock
  std::vector<Connection*>* dirty = nullptr; // connections with replies to send
  const std::byte* zeros = nullptr;          // kZeroBytes of zeros (WRITE_ZEROES)
  bool stopping = false;                     // the server is shutting down
};

/*
 * Lifecycle of a Connection
 *
 * 1. Constructed by the server on accept() with a non-blocking socket and its
 *    peer's pid (0: unknown); the greeting is queued at once.
 * 2. on_readable(): reads what the socket holds, runs the handshake, then
 *    parses requests. READ/WRITE/TRIM/WRITE_ZEROES take the volume's range
 *    lock (granted now, or later through ServerContext::ready, when start()
 *    runs) and go to the cache engine; FLUSH goes straight to it. Replies
 *    without data are appended to an output buffer; a READ's reply stays in
 *    its request record (header and data buffer) until sent. The server sends
 *    everything pending with one sendmsg per loop turn (flush_output()), the
 *    read data straight from the request buffers (no copy).
 * 3. It ends when the client disconnects (NBD_CMD_DISC or EOF), on a protocol
 *    violation (hard disconnect), or when the server stops: reading stops, the
 *    commands in flight complete and their replies are sent, then
 *    finished() turns true and the server destroys it.
 *
 * With an observer and a known peer pid, the handshake's end in transmission
 * is IoObserver::on_attach() and the destructor IoObserver::on_detach().
 *
 * With an observer, each READ, WRITE and WRITE_ZEROES is counted in its
 * volume's Volume::in_flight from its dispatch (IoObserver::on_issue) until
 * its reply was handed to the socket: a READ's when its record is recycled
 * after sendmsg, other replies once the output buffer holding them was sent
 * whole (unsent_); dropped replies (the client gone) uncount at once.
 */
class Connection {
 public:
  // Payload of the zero buffer used for WRITE_ZEROES chunks, bytes.
  static constexpr uint32_t kZeroBytes = 1u << 20;

  Connection(ServerContext& ctx, int fd, std::string peer, pid_t peer_pid);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  int fd() const { return fd_; }
  const std::string& peer() const { return peer_; }

  // The socket is readable: reads and processes until the socket is drained,
  // reading stops, or the reply backlog exceeds kMaxOutputBytes.
  void on_readable();
  // Sends queued replies; returns true when everything was sent, false when
  // the socket is full (wait for EPOLLOUT).
  bool flush_output();
  // Starts a command whose range lock was granted after it waited.
  void start(Command* cmd);
  // Stop taking requests (server stopping); in-flight ones still complete.
  void stop_reading() { reading_ = false; }
  // Gives up on the client (server stop timed out): unsent replies are dropped.
  void abandon() { hard_close(""); }

  bool reading() const { return reading_ && !closed_; }
  // True once the reply backlog is so large that reading should pause.
  bool backlogged() const { return out_.size() - out_sent_ + queued_bytes_ > kMaxOutputBytes; }
  bool has_output() const { return out_sent_ < out_.size() || queue_head_ < queue_.size(); }
  // No command in flight and nothing left to send (or the socket is gone).
  bool finished() const;

 private:
  static constexpr size_t kInitialInputBytes = 256 * 1024;
  static constexpr size_t kMaxOutputBytes = 64u << 20;
  static constexpr size_t kKeptOutputBytes = 4u << 20;  // output buffer kept between turns
  static constexpr int kMaxIovecs = 64;  // per sendmsg (well under IOV_MAX)

  void handshake();
  void requests();
  // Handles one parsed request whose payload (WRITE) is at `payload`.
  void dispatch(const Request& req, const std::byte* payload);
  Command* new_command(const Request& req);
  bool reserve(Command* cmd, size_t bytes);
  void submit_chunk(Command* cmd);
  void complete(Command* cmd, int status);  // the engine part is done
  void reply(Command* cmd, int status);     // queue the reply, recycle the record
  void reply_error(uint64_t handle, uint32_t nbd_error);
  void append_reply_header(uint32_t nbd_error, uint64_t handle);
  void queue_output();
  void hard_close(const std::string& why);
  // Takes `bytes` just sent off what flush_output() handed to sendmsg, in the
  // same order: the head READ reply's remainder when `head_first`, the output
  // buffer, then the queued READ replies (recycling those sent whole).
  void consume_sent(size_t bytes, bool head_first);
  // Takes up to `bytes` off the queued READ replies; returns what is left.
  size_t consume_queued(size_t bytes);
  void recycle(Command* cmd);
  // Counts a READ / write command as issued and tells the observer.
  void issue(Command* cmd);
  // The replies in out_ were sent or dropped: their commands complete.
  void release_unsent();

  static void on_io_done(void* arg, const cache::IoOutcome& outcome);
  static void on_discard_done(void* arg, int status);
  static void on_flush_done(void* arg, int status);
  static void on_fua_done(void* arg, int status);

  ServerContext& ctx_;
  int fd_;
  std::string peer_;
  pid_t peer_pid_;          // SO_PEERCRED of a Unix socket; 0: unknown
  bool attached_ = false;   // on_attach() was reported: on_detach() is owed
  Handshake handshake_;
  Volume* volume_ = nullptr;
  size_t volume_index_ = 0;
  bool transmission_ = false;
  bool reading_ = true;     // false after DISC, EOF, an error or stop
  bool closed_ = false;     // socket unusable: replies are dropped
  bool close_after_output_ = false;  // handshake ended (ABORT or refusal)
  std::vector<std::byte> in_;
  size_t in_start_ = 0, in_end_ = 0;
  std::vector<std::byte> out_;
  size_t out_sent_ = 0;
  std::vector<Command*> queue_;  // READ replies waiting to be sent, from queue_head_ on
  size_t queue_head_ = 0;
  size_t queue_sent_ = 0;        // bytes of queue_[queue_head_] already sent
  size_t queued_bytes_ = 0;      // bytes of every reply in queue_ not yet sent
  bool queued_ = false;     // in ctx_.dirty
  uint64_t in_flight_ = 0;
  int64_t read_ns_ = 0;          // steady clock at the last socket read (with an observer)
  uint32_t unsent_[2] = {};      // counted commands whose reply waits in out_, by Direction
  blockdev::RequestPool<Command> commands_;
  std::vector<RangeLock::Range*> granted_;  // scratch for RangeLock::release
};

}  // namespace tierwise::frontend::nbd
