// The volumes file's "consumer_cgroup" (serve/serve_config.hpp): a cgroup v2
// directory whose cpu.stat is read at start-up; the WB+n ownership lease keys;
// anything else is refused with the file, the volume and the field named.
#include <filesystem>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "serve/serve_config.hpp"
#include "test_support.hpp"

namespace tierwise::serve {
namespace {

std::string volumes_file(const std::string& consumer_cgroup_json) {
  return R"({"volumes": [{"name": "vm1", "datastore": "/tmp/vm1.img", "size": "1MiB", "tier": {"ram": "1MiB"},
                          "consumer_cgroup": )" +
         consumer_cgroup_json + "}]}";
}

// The message parse_serve_config throws for `text`, or "" when it accepts it.
std::string refusal(const std::string& text) {
  try {
    parse_serve_config(text, "volumes.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(ServeConfigTest, ConsumerCgroupIsADirectoryWithACpuStat) {
  const testing::TempDir dir("vm1.scope");
  testing::write_file(dir.path() + "/cpu.stat", "usage_usec 30\nuser_usec 20\nsystem_usec 10\nnr_periods 0\n");
  const ServeConfig c = parse_serve_config(volumes_file("\"" + dir.path() + "\""), "volumes.json");
  ASSERT_EQ(c.volumes.size(), 1u);
  EXPECT_EQ(c.volumes[0].consumer_cgroup, dir.path());

  const ServeConfig without = parse_serve_config(
      R"({"volumes": [{"name": "vm1", "datastore": "/tmp/vm1.img", "tier": {"ram": "1MiB"}}]})", "volumes.json");
  EXPECT_EQ(without.volumes[0].consumer_cgroup, "") << "optional: the NBD clients are the consumer";
}

TEST(ServeConfigTest, ThisHostsRootCgroupIsAccepted) {
  // The cgroup v2 hierarchy: /sys/fs/cgroup, or /sys/fs/cgroup/unified beside v1 controllers.
  for (const std::string root : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
    if (std::filesystem::exists(root + "/cgroup.controllers") && std::filesystem::exists(root + "/cpu.stat")) {
      EXPECT_EQ(refusal(volumes_file("\"" + root + "\"")), "");
      return;
    }
  }
  GTEST_SKIP() << "no cgroup v2 hierarchy with a cpu.stat at /sys/fs/cgroup";
}

TEST(ServeConfigTest, ABadConsumerCgroupNamesTheFileTheVolumeAndTheField) {
  EXPECT_EQ(refusal(volumes_file("\"/nonexistent/machine.slice/vm1.scope\"")),
            "volumes.json: volumes[0] (vm1): \"consumer_cgroup\" must be a cgroup v2 directory with a cpu.stat: "
            "/nonexistent/machine.slice/vm1.scope/cpu.stat: No such file or directory");

  const testing::TempDir v1("cgroup-v1");  // a cgroup v1 cpuacct directory has no cpu.stat of that shape
  testing::write_file(v1.path() + "/cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\n");
  const std::string message = refusal(volumes_file("\"" + v1.path() + "\""));
  EXPECT_NE(message.find("volumes.json: volumes[0] (vm1): \"consumer_cgroup\""), std::string::npos) << message;
  EXPECT_NE(message.find(v1.path() + "/cpu.stat: not a cgroup v2 cpu.stat"), std::string::npos) << message;

  EXPECT_NE(refusal(volumes_file("\"\"")).find("\"consumer_cgroup\" must be a non-empty string"), std::string::npos);
  EXPECT_NE(refusal(volumes_file("7")).find("\"consumer_cgroup\" must be a non-empty string"), std::string::npos);
}

std::string write_back_volume(const std::string& extra) {
  return R"({"volumes": [{"name": "vm1", "datastore": "/shared/vm1.img", "size": "1MiB", "mode": "write-back",
                          "tier": {"file": "/nvme/vm1.tier", "size": "1MiB"})" +
         extra + "}]}";
}

TEST(ServeConfigTest, TheLeaseDefaultsBesideTheDatastoreAndNeedsPeers) {
  const ServeConfig c = parse_serve_config(write_back_volume(R"(, "peers": ["10.0.0.2:7100"])"), "volumes.json");
  EXPECT_EQ(c.volumes[0].lease_file, "/shared/vm1.img.lease");
  EXPECT_EQ(c.volumes[0].lease_ms, 5000u);
  const ServeConfig d = parse_serve_config(
      write_back_volume(R"(, "peers": ["10.0.0.2:7100"], "lease": "/shared/leases/vm1", "lease_ms": 1000)"),
      "volumes.json");
  EXPECT_EQ(d.volumes[0].lease_file, "/shared/leases/vm1");
  EXPECT_EQ(d.volumes[0].lease_ms, 1000u);
  EXPECT_NE(refusal(write_back_volume(R"(, "lease": "/shared/l")")).find("\"lease\" needs \"peers\""),
            std::string::npos);
  EXPECT_NE(refusal(write_back_volume(R"(, "peers": ["10.0.0.2:7100"], "lease_ms": 50)"))
                .find("\"lease_ms\" must be an integer from 200 to 600000"),
            std::string::npos);
  EXPECT_TRUE(parse_serve_config(write_back_volume(""), "volumes.json").volumes[0].lease_file.empty())
      << "WB+0 has no lease";
}

}  // namespace
}  // namespace tierwise::serve
