// Block devices: the io_uring file back end (datastore) and the RAM tier.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <gtest/gtest.h>

#include "blockdev/aligned_buffer.hpp"
#include "blockdev/ram_device.hpp"
#include "blockdev/uring_file_device.hpp"
#include "blockdev/uring_queue.hpp"

namespace tierwise::blockdev {
namespace {

// A directory under /tmp, removed with everything in it at scope exit.
struct TempDir {
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::filesystem::path path;
};

struct Done {
  int calls = 0;
  int status = 1;
};
void on_done(void* arg, int status) {
  auto* d = static_cast<Done*>(arg);
  ++d->calls;
  d->status = status;
}

class UringFileDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = (dir_.path / "volume.img").string();
    ASSERT_EQ(UringQueue::create(64, &queue_), 0);
    ASSERT_EQ(UringFileDevice::open(*queue_, path_, &dev_), 0);
  }
  void TearDown() override {
    dev_.reset();
    queue_.reset();
  }
  void wait_all() {
    while (queue_->in_flight() > 0) ASSERT_GE(queue_->poll(true), 0);
  }

  TempDir dir_{"tierwise-blockdev-test"};
  std::string path_;
  std::unique_ptr<UringQueue> queue_;
  std::unique_ptr<UringFileDevice> dev_;
};

TEST_F(UringFileDeviceTest, WritesLandAtTheirOffsetsAndReadBack) {
  // 16 writes of distinct patterns at scattered sector-aligned offsets, queued
  // together so they leave in one batch.
  constexpr int kWrites = 16;
  constexpr uint32_t kLen = 8192;
  auto data = allocate_aligned(kWrites * kLen, 4096);
  std::vector<Done> done(kWrites);
  for (int i = 0; i < kWrites; ++i) {
    std::memset(data.get() + i * kLen, 'a' + i, kLen);
    const uint64_t offset = uint64_t(i) * 1'000'448;  // 1954 sectors apart
    ASSERT_EQ(dev_->submit_write(data.get() + i * kLen, offset, kLen, on_done, &done[i]), 0);
  }
  wait_all();
  for (const Done& d : done) {
    EXPECT_EQ(d.calls, 1);
    EXPECT_EQ(d.status, 0);
  }
  EXPECT_LT(queue_->submit_calls(), queue_->submitted_requests()) << "writes were not batched";

  // The bytes are in the file where they were written (checked with plain pread).
  const int fd = ::open(path_.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  std::vector<char> check(kLen);
  for (int i = 0; i < kWrites; ++i) {
    ASSERT_EQ(::pread(fd, check.data(), kLen, off_t(i) * 1'000'448), kLen);
    EXPECT_EQ(check[0], 'a' + i);
    EXPECT_EQ(check[kLen - 1], 'a' + i);
  }
  ::close(fd);

  // And the device reads them back, including a range straddling two writes' gap.
  auto back = allocate_aligned(kLen, 4096);
  Done r;
  ASSERT_EQ(dev_->submit_read(back.get(), 3 * 1'000'448, kLen, on_done, &r), 0);
  wait_all();
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(static_cast<char>(back[0]), 'd');
  EXPECT_EQ(static_cast<char>(back[kLen - 1]), 'd');

  Done gap;
  ASSERT_EQ(dev_->submit_read(back.get(), 1'000'448 + kLen - 512, 1024, on_done, &gap), 0);
  wait_all();
  EXPECT_EQ(static_cast<char>(back[0]), 'b');   // last sector of write 1
  EXPECT_EQ(static_cast<char>(back[512]), 0);   // never written: a hole
}

TEST_F(UringFileDeviceTest, ReadPastEndOfFileIsZeros) {
  auto buf = allocate_aligned(4096, 4096);
  std::memset(buf.get(), 0x55, 4096);
  Done w;
  ASSERT_EQ(dev_->submit_write(buf.get(), 0, 2048, on_done, &w), 0);
  wait_all();
  Done r;
  ASSERT_EQ(dev_->submit_read(buf.get(), 1024, 4096, on_done, &r), 0);  // file ends at 2048
  wait_all();
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(static_cast<unsigned char>(buf[0]), 0x55);
  EXPECT_EQ(static_cast<unsigned char>(buf[1023]), 0x55);
  EXPECT_EQ(static_cast<unsigned char>(buf[1024]), 0);
  EXPECT_EQ(static_cast<unsigned char>(buf[4095]), 0);
}

TEST_F(UringFileDeviceTest, RefusesUnalignedRequestsWithoutCallingBack) {
  auto buf = allocate_aligned(8192, 4096);
  Done d;
  EXPECT_EQ(dev_->submit_read(buf.get(), 100, 4096, on_done, &d), -EINVAL);
  EXPECT_EQ(dev_->submit_write(buf.get(), 0, 1000, on_done, &d), -EINVAL);
  EXPECT_EQ(dev_->submit_write(buf.get() + 8, 0, 512, on_done, &d), -EINVAL);
  EXPECT_EQ(dev_->submit_read(buf.get(), 0, 0, on_done, &d), -EINVAL);
  EXPECT_EQ(d.calls, 0);
  EXPECT_EQ(queue_->in_flight(), 0u);
}

TEST_F(UringFileDeviceTest, FlushCompletesAndFileStaysSparse) {
  auto buf = allocate_aligned(4096, 4096);
  std::memset(buf.get(), 1, 4096);
  Done w, f;
  ASSERT_EQ(dev_->submit_write(buf.get(), 1ull << 30, 4096, on_done, &w), 0);  // at 1 GiB
  ASSERT_EQ(dev_->submit_flush(on_done, &f), 0);
  wait_all();
  EXPECT_EQ(w.status, 0);
  EXPECT_EQ(f.status, 0);
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, (1ll << 30) + 4096);
  EXPECT_LT(st.st_blocks * 512, 1 << 20) << "the datastore file should be sparse";
}

TEST_F(UringFileDeviceTest, DiscardPunchesAHoleThatReadsAsZeros) {
  auto buf = allocate_aligned(64 * 1024, 4096);
  std::memset(buf.get(), 7, 64 * 1024);
  Done w, d, r;
  ASSERT_EQ(dev_->submit_write(buf.get(), 0, 64 * 1024, on_done, &w), 0);
  wait_all();
  ASSERT_EQ(w.status, 0);
  EXPECT_EQ(dev_->submit_discard(100, 512, on_done, &d), -EINVAL);  // unaligned: refused
  ASSERT_EQ(dev_->submit_discard(16 * 1024, 32 * 1024, on_done, &d), 0);
  wait_all();
  ASSERT_EQ(d.status, 0);
  ASSERT_EQ(dev_->submit_read(buf.get(), 0, 64 * 1024, on_done, &r), 0);
  wait_all();
  ASSERT_EQ(r.status, 0);
  for (size_t i = 0; i < 64 * 1024; ++i) {
    const bool hole = i >= 16 * 1024 && i < 48 * 1024;
    ASSERT_EQ(buf[i], std::byte(hole ? 0 : 7)) << "byte " << i;
  }
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_EQ(st.st_size, 64 * 1024) << "the hole keeps the size";
}

TEST_F(UringFileDeviceTest, UsesDirectIoWhereTheFilesystemAllowsIt) {
  // /tmp here is ext4, which takes 512-byte aligned O_DIRECT (STACK.md).
  struct statx st {};
  ASSERT_EQ(::statx(AT_FDCWD, path_.c_str(), 0, STATX_DIOALIGN, &st), 0);
  if ((st.stx_mask & STATX_DIOALIGN) && st.stx_dio_offset_align != 0 &&
      st.stx_dio_offset_align <= 512) {
    EXPECT_TRUE(dev_->direct_io());
  } else {
    EXPECT_FALSE(dev_->direct_io());
  }
}

TEST(UringQueueTest, BacklogsBeyondTheRingAndCompletesEverything) {
  std::unique_ptr<UringQueue> queue;
  ASSERT_EQ(UringQueue::create(4, &queue), 0);  // 4 SQ slots, 8 CQ slots
  const TempDir dir("tierwise-uring-test");
  {
    std::unique_ptr<UringFileDevice> dev;
    ASSERT_EQ(UringFileDevice::open(*queue, (dir.path / "v.img").string(), &dev), 0);
    constexpr int kRequests = 100;
    // One 512-byte sector per request, each from its own 4 KiB-aligned buffer.
    auto buf = allocate_aligned(kRequests * 4096, 4096);
    std::vector<Done> done(kRequests);
    for (int i = 0; i < kRequests; ++i) {
      std::memset(buf.get() + i * 4096, i, 512);
      ASSERT_EQ(dev->submit_write(buf.get() + i * 4096, uint64_t(i) * 512, 512, on_done, &done[i]), 0);
    }
    EXPECT_EQ(queue->in_flight(), uint64_t{kRequests});
    while (queue->in_flight() > 0) ASSERT_GE(queue->poll(true), 0);
    for (const Done& d : done) EXPECT_EQ(d.status, 0);
    auto back = allocate_aligned(kRequests * 512, 4096);
    Done r;
    ASSERT_EQ(dev->submit_read(back.get(), 0, kRequests * 512, on_done, &r), 0);
    while (queue->in_flight() > 0) ASSERT_GE(queue->poll(true), 0);
    for (int i = 0; i < kRequests; ++i) {
      EXPECT_EQ(std::memcmp(back.get() + i * 512, buf.get() + i * 4096, 512), 0) << "sector " << i;
    }
  }
}

TEST(RamDeviceTest, AllocatesOnlyWhatIsWritten) {
  std::unique_ptr<RamDevice> ram;
  ASSERT_EQ(RamDevice::create(256ull << 20, &ram), 0);
  EXPECT_EQ(ram->allocated_bytes(), 0u);

  std::vector<char> buf(4096, 'x');
  Done w;
  ASSERT_EQ(ram->submit_write(buf.data(), 8192, 4096, on_done, &w), 0);
  EXPECT_EQ(w.calls, 1) << "RAM completes before submit returns";
  EXPECT_EQ(ram->allocated_bytes(), RamDevice::kChunkBytes);

  std::vector<char> back(8192, 'z');
  Done r;
  ASSERT_EQ(ram->submit_read(back.data(), 4096, 8192, on_done, &r), 0);
  EXPECT_EQ(back[0], 0);          // never written
  EXPECT_EQ(back[4096], 'x');
  EXPECT_EQ(back[8191], 'x');

  // A read far away allocates nothing.
  ASSERT_EQ(ram->submit_read(back.data(), 200ull << 20, 4096, on_done, &r), 0);
  EXPECT_EQ(ram->allocated_bytes(), RamDevice::kChunkBytes);
}

TEST(RamDeviceTest, RefusesRangesOutsideItsCapacity) {
  std::unique_ptr<RamDevice> ram;
  ASSERT_EQ(RamDevice::create(1 << 20, &ram), 0);
  char buf[16];
  Done d;
  EXPECT_EQ(ram->submit_read(buf, (1 << 20) - 8, 16, on_done, &d), -EINVAL);
  EXPECT_EQ(ram->submit_write(buf, 1 << 20, 1, on_done, &d), -EINVAL);
  EXPECT_EQ(d.calls, 0);
  EXPECT_EQ(RamDevice::create(0, &ram), -EINVAL);
}

}  // namespace
}  // namespace tierwise::blockdev
