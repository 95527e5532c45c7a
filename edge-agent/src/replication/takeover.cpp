#include "replication/takeover.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cache/writeback/journal_format.hpp"
#include "replication/lease.hpp"

namespace tierwise::replication {
namespace wb = cache::writeback;

int destage_records(const std::string& path, const std::map<uint64_t, std::vector<std::byte>>& records,
            TakeoverReport* report, std::string* error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = "datastore " + path + ": " + std::strerror(errno);
    return -errno;
  }
  int rc = 0;
  for (const auto& [seq, record] : records) {  // std::map: sequence order
    const auto h = wb::decode_record_header(std::span<const std::byte, wb::kSectorBytes>(record.data(), wb::kSectorBytes));
    if (!h || !wb::record_data_intact(*h, record)) {  // checked on arrival; never expected
      rc = -EBADMSG;
      *error = "replica of record " + std::to_string(seq) + " is damaged";
      break;
    }
    const off_t at = static_cast<off_t>(h->block * wb::kBlockBytes + h->offset);
    if (::pwrite(fd, record.data() + wb::kSectorBytes, h->length, at) != static_cast<ssize_t>(h->length)) {
      rc = errno != 0 ? -errno : -EIO;
      *error = "datastore " + path + ": " + std::strerror(-rc);
      break;
    }
    ++report->records;
    report->bytes += h->length;
    report->destaged_through = seq;
  }
  if (rc == 0 && ::fdatasync(fd) != 0) {
    rc = -errno;
    *error = "datastore " + path + ": fdatasync: " + std::strerror(errno);
  }
  ::close(fd);
  return rc;
}

int take_over(uint64_t volume_id, const Hello& hello, uint64_t renewals_seen,
              const std::map<uint64_t, std::vector<std::byte>>& records, const std::string& holder,
              TakeoverReport* report, std::string* error) {
  *report = TakeoverReport{};
  report->epoch = hello.epoch;
  std::string why;
  const auto fence = [&](std::optional<LeaseRecord>& r) {
    if (!r || r->volume_id != volume_id || r->epoch != hello.epoch) {
      why = r ? "the lease is at epoch " + std::to_string(r->epoch) : "the lease record is missing";
      return r && r->epoch > hello.epoch ? -ESTALE : -EINVAL;
    }
    if (r->state != LeaseRecord::State::kOwned || r->renewals != renewals_seen) {
      why = "the owner renewed the lease";
      return -EBUSY;
    }
    r->epoch = hello.epoch + 1;
    r->renewals = 0;
    r->holder = holder;
    return 0;
  };
  if (const int rc = update_lease(hello.lease_file, fence, error); rc != 0) {
    if (!why.empty()) *error = why;
    return rc;
  }
  if (const int rc = destage_records(hello.datastore, records, report, error); rc != 0) return rc;
  return update_lease(hello.lease_file, [&](std::optional<LeaseRecord>& r) {
    if (!r || r->epoch != hello.epoch + 1) return -ESTALE;
    r->state = LeaseRecord::State::kReleased;
    r->destaged_through = report->destaged_through;
    return 0;
  }, error);
}

}  // namespace tierwise::replication
