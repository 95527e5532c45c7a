// Write-back crash tests: a writer process (wb_crash_writer) runs over the
// engine in write-back and is killed with SIGKILL at random points, 20 times;
// after each kill a restart recovers the journal and every acknowledged write
// must read back (0 errors). At the end a writer switches live to
// write-through, the backlog is destaged, and the datastore file itself must
// hold every acknowledged write. The second test does the same under WB+1 and
// kills the peer (a `tierwise-agent peer` process) first in every round: the
// volume must fall back to write-through and still lose nothing.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

extern char** environ;

namespace {

namespace fs = std::filesystem;
constexpr int kRounds = 20;

pid_t spawn(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return -1;
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

class WriteBackCrashTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tierwise-wb-crash-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const unsigned seed = std::random_device{}();
    std::cout << "random seed " << seed << '\n';
    rng_.seed(seed);
  }
  void TearDown() override {
    if (!HasFailure()) fs::remove_all(dir_);
  }

  std::vector<std::string> writer(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {WB_CRASH_WRITER,
                                     "--datastore", (dir_ / "datastore.img").string(),
                                     "--tier", (dir_ / "tier.img").string(),
                                     "--log", (dir_ / "acked.log").string(),
                                     "--events", (dir_ / "events.log").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }
  int run_writer(const std::vector<std::string>& extra) const {
    return wait_exit(spawn(writer(extra)));
  }
  int random_ms(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  // Runs a writer in write-back until `kill_at_ms`, then SIGKILL.
  void kill_writer_at(int round, int kill_at_ms, const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"--first-k", std::to_string(uint64_t(round + 1) * 100000000),
                                     "--seed", std::to_string(round)};
    args.insert(args.end(), extra.begin(), extra.end());
    const pid_t pid = spawn(writer(args));
    ASSERT_GT(pid, 0);
    sleep_ms(kill_at_ms);
    kill(pid, SIGKILL);
    ASSERT_EQ(wait_exit(pid), 128 + SIGKILL) << "the writer ended before it was killed";
  }

  // Destages everything through a live switch under I/O, then checks the file:
  // write-through writes land while destages of their blocks are in flight
  // (the engine makes such a write wait for the destage; writeback_test's
  // WriteBackOrdering replays that interleaving deterministically).
  void destage_and_check_datastore() {
    ASSERT_EQ(run_writer({"--first-k", "9000000000", "--duration-ms", "1200",
                          "--write-through-at-ms", "500"}),
              0);
    const std::string events = read_text(dir_ / "events.log");
    EXPECT_GE(count_of(events, "write-back -> write-through"), 1u) << events;
    EXPECT_GE(count_of(events, "the backlog is destaged"), 1u) << events;
    EXPECT_EQ(run_writer({"--verify-datastore"}), 0);
  }

  fs::path dir_;
  std::mt19937 rng_;
};

TEST_F(WriteBackCrashTest, EveryAcknowledgedWriteSurvivesTwentyKills) {
  for (int round = 0; round < kRounds; ++round) {
    kill_writer_at(round, random_ms(150, 500), {});
    ASSERT_EQ(run_writer({"--verify"}), 0) << "round " << round;
  }
  const std::string events = read_text(dir_ / "events.log");
  // Most kills landed while the journal held dirty records (the rate limit keeps
  // a backlog), so recovery had records to apply.
  EXPECT_GE(count_of(events, "recovered ") - count_of(events, "recovered 0 records"),
            size_t{kRounds * 3 / 4}) << events;
  destage_and_check_datastore();
}

TEST_F(WriteBackCrashTest, PeerKilledUnderWbPlus1FallsBackToWriteThroughWithoutLoss) {
  for (int round = 0; round < kRounds; ++round) {
    const fs::path port_file = dir_ / ("peer-port-" + std::to_string(round));
    const pid_t peer = spawn({TIERWISE_AGENT_BINARY, "peer", "--listen", "127.0.0.1:0",
                              "--port-file", port_file.string()});
    ASSERT_GT(peer, 0);
    while (!fs::exists(port_file)) sleep_ms(5);
    const std::string port = read_text(port_file).substr(0, read_text(port_file).find('\n'));
    const std::string before = read_text(dir_ / "events.log");
    std::vector<std::string> args = {WB_CRASH_WRITER, "--datastore",
                                     (dir_ / "datastore.img").string(), "--tier",
                                     (dir_ / "tier.img").string(), "--log",
                                     (dir_ / "acked.log").string(), "--events",
                                     (dir_ / "events.log").string(), "--peer", "127.0.0.1:" + port,
                                     "--first-k", std::to_string(uint64_t(round + 1) * 100000000),
                                     "--seed", std::to_string(round)};
    const pid_t w = spawn(args);
    ASSERT_GT(w, 0);
    sleep_ms(random_ms(150, 400));
    kill(peer, SIGKILL);
    EXPECT_EQ(wait_exit(peer), 128 + SIGKILL);
    sleep_ms(random_ms(150, 400));  // the writer keeps writing: falls back, destages
    kill(w, SIGKILL);
    ASSERT_EQ(wait_exit(w), 128 + SIGKILL) << "the writer ended before it was killed";
    const std::string round_events = read_text(dir_ / "events.log").substr(before.size());
    EXPECT_EQ(count_of(round_events, "peer failed"), 1u) << round_events;
    ASSERT_EQ(run_writer({"--verify"}), 0) << "round " << round;
  }
  destage_and_check_datastore();
}

}  // namespace
