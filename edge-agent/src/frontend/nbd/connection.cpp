#include "frontend/nbd/connection.hpp"

#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "frontend/nbd/wire.hpp"

namespace tierwise::frontend::nbd {
namespace {

constexpr uint64_t kBlock = cache::CacheEngine::kBlockBytes;

bool is_write(uint16_t type) { return type != kCmdRead; }

size_t direction_index(uint16_t type) {
  return static_cast<size_t>(type == kCmdRead ? cache::Direction::kRead : cache::Direction::kWrite);
}

}  // namespace

Connection::Connection(ServerContext& ctx, int fd, std::string peer, pid_t peer_pid)
    : ctx_(ctx), fd_(fd), peer_(std::move(peer)), peer_pid_(peer_pid), handshake_(*ctx.infos) {
  in_.resize(kInitialInputBytes);
  handshake_.greet(out_);
  queue_output();
}

Connection::~Connection() {
  if (fd_ >= 0) ::close(fd_);
  if (attached_) ctx_.observer->on_detach(volume_index_, peer_pid_);
}

bool Connection::finished() const {
  if (in_flight_ > 0) return false;
  if (closed_) return true;
  return !reading_ && !has_output();
}

void Connection::hard_close(const std::string& why) {
  if (!why.empty()) std::fprintf(stderr, "tierwise-agent: nbd: %s: %s; disconnecting\n", peer_.c_str(), why.c_str());
  reading_ = false;
  closed_ = true;
  out_.clear();
  out_sent_ = 0;
  release_unsent();
  for (size_t i = queue_head_; i < queue_.size(); ++i) recycle(queue_[i]);
  queue_.clear();
  queue_head_ = queue_sent_ = queued_bytes_ = 0;
}

void Connection::recycle(Command* cmd) {
  if (cmd->in_flight) {
    --volume_->in_flight[direction_index(cmd->req.type)];
    cmd->in_flight = false;
  }
  commands_.release(cmd);
  --in_flight_;
}

void Connection::issue(Command* cmd) {
  IoObserver* observer = ctx_.observer;
  if (observer == nullptr) return;
  const Request& req = cmd->req;
  const size_t d = direction_index(req.type);
  uint32_t* in_flight = volume_->in_flight;
  ++in_flight[d];
  cmd->in_flight = true;
  observer->on_issue(volume_index_, IssuedIo{static_cast<cache::Direction>(d), req.offset, req.length, read_ns_,
                                             in_flight[0] + in_flight[1], in_flight[d]});
}

void Connection::release_unsent() {
  if (volume_ == nullptr) return;
  for (size_t d = 0; d < 2; ++d) {
    volume_->in_flight[d] -= unsent_[d];
    unsent_[d] = 0;
  }
}

void Connection::queue_output() {
  if (!queued_) {
    queued_ = true;
    ctx_.dirty->push_back(this);
  }
}

bool Connection::flush_output() {
  queued_ = false;
  while (!closed_ && has_output()) {
    // A reply partly sent must be finished before any other byte goes out: a
    // queued READ reply started earlier goes ahead of the output buffer.
    const bool head_first = queue_sent_ > 0;
    iovec iov[kMaxIovecs];
    int n_iov = 0;
    auto add_queued = [&](size_t i, size_t skip) {
      Command* cmd = queue_[i];
      if (skip < kSimpleReplyBytes) iov[n_iov++] = {cmd->reply + skip, kSimpleReplyBytes - skip};
      const size_t data_skip = skip > kSimpleReplyBytes ? skip - kSimpleReplyBytes : 0;
      iov[n_iov++] = {cmd->buf.get() + data_skip, cmd->req.length - data_skip};
    };
    size_t next = queue_head_;
    if (head_first) add_queued(next++, queue_sent_);
    if (out_sent_ < out_.size()) iov[n_iov++] = {out_.data() + out_sent_, out_.size() - out_sent_};
    for (; next < queue_.size() && n_iov + 2 <= kMaxIovecs; ++next) add_queued(next, 0);
    msghdr msg{};
    msg.msg_iov = iov;
    msg.msg_iovlen = static_cast<size_t>(n_iov);
    const ssize_t n = ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
    if (n > 0) {
      consume_sent(static_cast<size_t>(n), head_first);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      return false;
    } else {
      hard_close(n < 0 && errno != EPIPE && errno != ECONNRESET ? std::strerror(errno) : "");
    }
  }
  if (close_after_output_) reading_ = false;
  return true;
}

size_t Connection::consume_queued(size_t bytes) {
  while (bytes > 0 && queue_head_ < queue_.size()) {
    Command* cmd = queue_[queue_head_];
    const size_t left = kSimpleReplyBytes + cmd->req.length - queue_sent_;
    if (bytes < left) {
      queue_sent_ += bytes;
      queued_bytes_ -= bytes;
      return 0;
    }
    bytes -= left;
    queued_bytes_ -= left;
    queue_sent_ = 0;
    ++queue_head_;
    recycle(cmd);
  }
  if (queue_head_ == queue_.size()) {
    queue_.clear();  // keeps its capacity: no allocation once warm
    queue_head_ = 0;
  }
  return bytes;
}

void Connection::consume_sent(size_t bytes, bool head_first) {
  if (head_first) {
    // Only the head reply's remainder went ahead of the output buffer.
    const size_t head_left = kSimpleReplyBytes + queue_[queue_head_]->req.length - queue_sent_;
    const size_t taken = std::min(bytes, head_left);
    consume_queued(taken);
    bytes -= taken;
  }
  const size_t from_out = std::min(bytes, out_.size() - out_sent_);
  out_sent_ += from_out;
  bytes -= from_out;
  if (out_sent_ == out_.size()) {
    out_.clear();
    out_sent_ = 0;
    release_unsent();  // every reply in it went out
    // Keep the buffer for the next turn, unless a burst of replies grew it:
    // idle connections should not each hold megabytes.
    if (out_.capacity() > kKeptOutputBytes) out_.shrink_to_fit();
  }
  consume_queued(bytes);
}

void Connection::on_readable() {
  while (reading() && !backlogged()) {
    if (in_start_ == in_end_) in_start_ = in_end_ = 0;
    if (in_end_ == in_.size()) {
      // Make room: move the unparsed bytes to the front, grow when they fill it.
      std::memmove(in_.data(), in_.data() + in_start_, in_end_ - in_start_);
      in_end_ -= in_start_;
      in_start_ = 0;
      if (in_end_ == in_.size()) in_.resize(in_.size() * 2);
    }
    const size_t space = in_.size() - in_end_;
    const ssize_t n = ::recv(fd_, in_.data() + in_end_, space, 0);
    if (n == 0) {
      reading_ = false;  // the client closed its side: finish what is in flight
      break;
    }
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) hard_close(std::strerror(errno));
      break;
    }
    in_end_ += static_cast<size_t>(n);
    if (ctx_.observer != nullptr) {
      // The issue time of the requests this read completes (IssuedIo::issued_ns).
      read_ns_ = std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now().time_since_epoch())
                     .count();
    }
    if (transmission_) {
      requests();
    } else {
      handshake();
    }
    if (static_cast<size_t>(n) < space) break;  // drained what the socket held
  }
}

void Connection::handshake() {
  const std::span<const std::byte> in(in_.data() + in_start_, in_end_ - in_start_);
  const Handshake::Result r = handshake_.feed(in, out_);
  in_start_ += r.consumed;
  queue_output();
  if (r.status == Handshake::Status::kClose) {
    if (!handshake_.error().empty()) {
      std::fprintf(stderr, "tierwise-agent: nbd: %s: handshake refused: %s\n", peer_.c_str(),
                   handshake_.error().c_str());
    }
    close_after_output_ = true;
    reading_ = false;
  } else if (r.status == Handshake::Status::kGo) {
    volume_index_ = r.export_index;
    volume_ = &(*ctx_.volumes)[r.export_index];
    transmission_ = true;
    if (ctx_.observer != nullptr && peer_pid_ > 0) {
      attached_ = true;
      ctx_.observer->on_attach(volume_index_, peer_pid_);
    }
    requests();
  }
}

void Connection::requests() {
  while (reading_ && !closed_) {
    const std::span<const std::byte> in(in_.data() + in_start_, in_end_ - in_start_);
    Request req;
    const ParseStatus s = parse_request(in, &req);
    if (s == ParseStatus::kNeedMore) return;
    if (s == ParseStatus::kBadMagic) {
      hard_close("request without the NBD request magic");
      return;
    }
    size_t need = kRequestHeaderBytes;
    if (req.type == kCmdWrite) {
      if (payload_too_large(req)) {
        hard_close("write of " + std::to_string(req.length) + " bytes (at most " +
                   std::to_string(kMaxPayloadBytes) + ")");
        return;
      }
      need += req.length;
    }
    if (in.size() < need) {
      if (in_.size() - in_start_ < need) {  // the buffer cannot hold it: make it fit
        std::memmove(in_.data(), in_.data() + in_start_, in.size());
        in_end_ = in.size();
        in_start_ = 0;
        if (in_.size() < need) in_.resize(need);
      }
      return;
    }
    in_start_ += need;
    dispatch(req, in.data() + kRequestHeaderBytes);
  }
}

Command* Connection::new_command(const Request& req) {
  Command* cmd = commands_.acquire();
  cmd->conn = this;
  cmd->req = req;
  cmd->zeroed = 0;
  cmd->in_flight = false;
  cmd->range.owner = cmd;
  ++in_flight_;
  return cmd;
}

bool Connection::reserve(Command* cmd, size_t bytes) {
  if (cmd->capacity >= bytes) return true;
  cmd->buf = blockdev::allocate_aligned(bytes, kBlock);
  cmd->capacity = cmd->buf ? bytes : 0;
  return cmd->buf != nullptr;
}

void Connection::dispatch(const Request& req, const std::byte* payload) {
  if (req.type == kCmdDisc) {
    reading_ = false;  // soft disconnect: close once in-flight replies are sent
    return;
  }
  const uint32_t error = validate_request(req, ExportLimits{volume_->info.size_bytes,
                                                            volume_->info.transmission_flags});
  if (error != kOk) {
    reply_error(req.handle, error);
    return;
  }
  if (ctx_.stopping) {
    reply_error(req.handle, kEshutdown);
    return;
  }
  Command* cmd = new_command(req);
  if (req.type == kCmdRead || req.type == kCmdWrite || req.type == kCmdWriteZeroes) issue(cmd);
  if (req.type == kCmdFlush) {
    if (const int rc = volume_->engine->submit_flush(on_flush_done, cmd); rc != 0) reply(cmd, rc);
    return;
  }
  if (req.type == kCmdRead || req.type == kCmdWrite) {
    if (!reserve(cmd, req.length)) {
      reply(cmd, -ENOMEM);
      return;
    }
    if (req.type == kCmdWrite) std::memcpy(cmd->buf.get(), payload, req.length);
  }
  cmd->range.first = req.offset / kBlock;
  cmd->range.last = (req.offset + req.length - 1) / kBlock;
  if (volume_->lock.acquire(&cmd->range)) start(cmd);
}

void Connection::start(Command* cmd) {
  const Request& req = cmd->req;
  int rc = 0;
  switch (req.type) {
    case kCmdRead:
    case kCmdWrite:
      rc = volume_->engine->submit(req.type == kCmdRead ? cache::Direction::kRead : cache::Direction::kWrite,
                                   req.offset, req.length, cmd->buf.get(), on_io_done, cmd);
      break;
    case kCmdTrim:
      rc = volume_->engine->submit_discard(req.offset, req.length, on_discard_done, cmd);
      if (rc == -EOPNOTSUPP) {
        complete(cmd, 0);  // TRIM is advisory: nothing to deallocate here
        return;
      }
      break;
    case kCmdWriteZeroes:
      submit_chunk(cmd);
      return;
  }
  if (rc != 0) complete(cmd, rc);
}

void Connection::submit_chunk(Command* cmd) {
  const Request& req = cmd->req;
  const auto n = static_cast<uint32_t>(std::min<uint64_t>(kZeroBytes, req.length - cmd->zeroed));
  // The engine only reads a write's buffer, so every chunk shares the zeros.
  auto* zeros = const_cast<std::byte*>(ctx_.zeros);
  const int rc = volume_->engine->submit(cache::Direction::kWrite, req.offset + cmd->zeroed, n, zeros,
                                         on_io_done, cmd);
  if (rc != 0) complete(cmd, rc);
}

void Connection::on_io_done(void* arg, const cache::IoOutcome& outcome) {
  auto* cmd = static_cast<Command*>(arg);
  Connection* c = cmd->conn;
  if (c->ctx_.observer != nullptr) {
    c->ctx_.observer->on_io(c->volume_index_, cmd->req.offset + cmd->zeroed, outcome);
  }
  if (cmd->req.type == kCmdWriteZeroes && outcome.status == 0) {
    cmd->zeroed += outcome.length_bytes;
    if (cmd->zeroed < cmd->req.length) {
      c->submit_chunk(cmd);
      return;
    }
  }
  c->complete(cmd, outcome.status);
}

void Connection::on_discard_done(void* arg, int status) {
  auto* cmd = static_cast<Command*>(arg);
  // TRIM is advisory: a datastore that cannot deallocate still answers success.
  cmd->conn->complete(cmd, status == -EOPNOTSUPP ? 0 : status);
}

void Connection::complete(Command* cmd, int status) {
  granted_.clear();
  volume_->lock.release(&cmd->range, &granted_);
  for (RangeLock::Range* r : granted_) ctx_.ready->push_back(static_cast<Command*>(r->owner));
  if (status == 0 && (cmd->req.flags & kCmdFlagFua) != 0 && is_write(cmd->req.type)) {
    // Force unit access: the reply waits until the datastore made it durable.
    if (const int rc = volume_->engine->submit_flush(on_fua_done, cmd); rc != 0) reply(cmd, rc);
    return;
  }
  reply(cmd, status);
}

void Connection::on_flush_done(void* arg, int status) {
  auto* cmd = static_cast<Command*>(arg);
  cmd->conn->reply(cmd, status);
}

void Connection::on_fua_done(void* arg, int status) { on_flush_done(arg, status); }

void Connection::append_reply_header(uint32_t nbd_error, uint64_t handle) {
  std::byte header[kSimpleReplyBytes];
  store_be<uint32_t>(header, kSimpleReplyMagic);
  store_be<uint32_t>(header + 4, nbd_error);
  store_be<uint64_t>(header + 8, handle);
  out_.insert(out_.end(), header, header + kSimpleReplyBytes);
}

void Connection::reply_error(uint64_t handle, uint32_t nbd_error) {
  if (closed_) return;
  append_reply_header(nbd_error, handle);
  queue_output();
}

void Connection::reply(Command* cmd, int status) {
  if (closed_) {
    recycle(cmd);
    return;
  }
  const uint32_t error = nbd_error_from_errno(status);
  if (cmd->req.type == kCmdRead && error == kOk) {
    // Sent from the request record by flush_output(), which recycles it.
    store_be<uint32_t>(cmd->reply, kSimpleReplyMagic);
    store_be<uint32_t>(cmd->reply + 4, kOk);
    store_be<uint64_t>(cmd->reply + 8, cmd->req.handle);
    queue_.push_back(cmd);
    queued_bytes_ += kSimpleReplyBytes + cmd->req.length;
  } else {
    append_reply_header(error, cmd->req.handle);
    if (cmd->in_flight) {  // completes when out_ is sent (release_unsent)
      ++unsent_[direction_index(cmd->req.type)];
      cmd->in_flight = false;
    }
    recycle(cmd);
  }
  queue_output();
}

}  // namespace tierwise::frontend::nbd
