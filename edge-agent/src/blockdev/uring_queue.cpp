#include "blockdev/uring_queue.hpp"

#include <cerrno>
#include <cstring>

namespace tierwise::blockdev {

int UringQueue::create(unsigned entries, std::unique_ptr<UringQueue>* out) {
  std::unique_ptr<UringQueue> q(new UringQueue());
  io_uring_params params{};
  const int rc = io_uring_queue_init_params(entries, &q->ring_, &params);
  if (rc < 0) return rc;
  q->ring_ready_ = true;
  q->sq_entries_ = params.sq_entries;
  q->cq_entries_ = params.cq_entries;
  *out = std::move(q);
  return 0;
}

UringQueue::~UringQueue() {
  if (ring_ready_) io_uring_queue_exit(&ring_);
}

void UringQueue::enqueue_read(int fd, void* buf, uint64_t offset, uint32_t length,
                              const uint64_t* eof_hint, IoCompletion cb, void* cb_arg) {
  Request* r = requests_.acquire();
  *r = Request{Op::kRead, fd, static_cast<std::byte*>(buf), offset, length, 0, eof_hint, cb, cb_arg};
  enqueue(r);
}

void UringQueue::enqueue_write(int fd, const void* buf, uint64_t offset, uint32_t length,
                               IoCompletion cb, void* cb_arg) {
  Request* r = requests_.acquire();
  // io_uring_prep_write takes a const buffer; the cast only shares the Request type.
  *r = Request{Op::kWrite, fd, static_cast<std::byte*>(const_cast<void*>(buf)), offset, length,
               0, nullptr, cb, cb_arg};
  enqueue(r);
}

void UringQueue::enqueue_fsync(int fd, IoCompletion cb, void* cb_arg) {
  Request* r = requests_.acquire();
  *r = Request{Op::kFsync, fd, nullptr, 0, 0, 0, nullptr, cb, cb_arg};
  enqueue(r);
}

void UringQueue::enqueue_fallocate(int fd, int mode, uint64_t offset, uint32_t length,
                                   IoCompletion cb, void* cb_arg) {
  Request* r = requests_.acquire();
  *r = Request{Op::kFallocate, fd, nullptr, offset, length, static_cast<uint32_t>(mode), nullptr,
               cb, cb_arg};
  enqueue(r);
}

int UringQueue::register_eventfd(int eventfd) { return io_uring_register_eventfd(&ring_, eventfd); }

void UringQueue::enqueue(Request* r) {
  ++in_flight_;
  // Never hold more requests in the kernel than the completion queue can take,
  // and keep earlier backlogged requests ahead of this one.
  if (backlog_.empty() && in_kernel_ < cq_entries_) {
    prepare(r);
  } else {
    backlog_.push_back(r);
  }
}

void UringQueue::prepare(Request* r) {
  io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
  if (sqe == nullptr) {
    // Submission queue full: hand the prepared batch to the kernel first.
    const unsigned ready = io_uring_sq_ready(&ring_);
    if (io_uring_submit(&ring_) > 0) {
      ++submit_calls_;
      submitted_requests_ += ready;
    }
    sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) {
      backlog_.push_front(r);
      return;
    }
  }
  switch (r->op) {
    case Op::kRead:
      io_uring_prep_read(sqe, r->fd, r->buf + r->done, r->length - r->done, r->offset + r->done);
      break;
    case Op::kWrite:
      io_uring_prep_write(sqe, r->fd, r->buf + r->done, r->length - r->done, r->offset + r->done);
      break;
    case Op::kFsync:
      io_uring_prep_fsync(sqe, r->fd, IORING_FSYNC_DATASYNC);
      break;
    case Op::kFallocate:
      io_uring_prep_fallocate(sqe, r->fd, static_cast<int>(r->done), r->offset, r->length);
      break;
  }
  io_uring_sqe_set_data(sqe, r);
  ++in_kernel_;
}

void UringQueue::prepare_backlog() {
  while (!backlog_.empty() && in_kernel_ < cq_entries_) {
    Request* r = backlog_.front();
    backlog_.pop_front();
    prepare(r);
    if (!backlog_.empty() && backlog_.front() == r) return;  // no submission slot
  }
}

bool UringQueue::on_cqe(Request* r, int res) {
  int status = 0;
  if (r->op == Op::kFsync || r->op == Op::kFallocate) {
    status = res < 0 ? res : 0;
  } else if (res == -EAGAIN || res == -EINTR) {
    prepare(r);  // transient: try the same range again
    return false;
  } else if (res < 0) {
    status = res;
  } else {
    r->done += static_cast<uint32_t>(res);
    if (r->done < r->length) {
      const bool at_eof = res == 0 || (r->eof_hint != nullptr && r->offset + r->done >= *r->eof_hint);
      if (r->op == Op::kRead && at_eof) {
        // A sparse file: what lies past the end of file was never written.
        std::memset(r->buf + r->done, 0, r->length - r->done);
      } else if (r->op == Op::kWrite && res == 0) {
        status = -EIO;
      } else {
        prepare(r);  // short transfer: continue with the rest
        return false;
      }
    }
  }
  const IoCompletion cb = r->cb;
  void* const cb_arg = r->cb_arg;
  requests_.release(r);
  --in_flight_;
  cb(cb_arg, status);
  return true;
}

int UringQueue::poll(bool wait) {
  prepare_backlog();
  const unsigned ready = io_uring_sq_ready(&ring_);
  const bool block = wait && in_kernel_ > 0 && io_uring_cq_ready(&ring_) == 0;
  if (ready > 0 || block) {
    const int rc = block ? io_uring_submit_and_wait(&ring_, 1) : io_uring_submit(&ring_);
    if (rc < 0 && rc != -EINTR) return rc;
    if (ready > 0) {
      ++submit_calls_;
      submitted_requests_ += ready;
    }
  }
  int completed = 0;
  io_uring_cqe* cqe = nullptr;
  while (io_uring_peek_cqe(&ring_, &cqe) == 0) {
    auto* r = static_cast<Request*>(io_uring_cqe_get_data(cqe));
    const int res = cqe->res;
    io_uring_cqe_seen(&ring_, cqe);  // free the CQ slot before callbacks enqueue more
    --in_kernel_;
    if (on_cqe(r, res)) ++completed;
  }
  return completed;
}

}  // namespace tierwise::blockdev
