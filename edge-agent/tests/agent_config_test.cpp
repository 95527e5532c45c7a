// agent.yaml as the installer writes it and as an admin edits it: volumes in
// YAML go through serve's checks; bad files fail naming the key; the gateway
// URL under its name and its former one (docs/agent-gateway.md).
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "agent/agent_config.hpp"
#include "agent/health_reporter.hpp"
#include "export_http_receiver.hpp"

namespace tierwise::agent {
namespace {

constexpr const char* kInstalled = R"(# written by install.sh
gateway_url: http://127.0.0.1:4318
credential_file: /etc/tierwise/agent.credential
anonymization_key_file: /etc/tierwise/anonymization.key
spool_dir: /var/lib/tierwise/spool
health_interval_seconds: 30
listen: unix:/run/tierwise/nbd.sock
volumes: []
)";

// kInstalled with `volumes` replaced by `volumes_yaml`.
std::string with_volumes(const std::string& volumes_yaml) {
  std::string text = kInstalled;
  return text.replace(text.find("volumes: []\n"), 12, volumes_yaml);
}

std::string message_of(const std::string& yaml) {
  try {
    parse_agent_config(yaml, "agent.yaml");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(AgentConfig, ReadsTheInstallersFileWithoutVolumes) {
  const AgentConfig c = parse_agent_config(kInstalled, "agent.yaml");
  EXPECT_EQ(c.gateway_url, "http://127.0.0.1:4318");
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(c.credential_file, "/etc/tierwise/agent.credential");
  EXPECT_EQ(c.anonymization_key_file, "/etc/tierwise/anonymization.key");
  EXPECT_EQ(c.spool_dir, "/var/lib/tierwise/spool");
  EXPECT_EQ(c.health_interval_seconds, 30);
  EXPECT_EQ(c.telemetry_interval_seconds, 10);
  EXPECT_FALSE(c.send_names);
  EXPECT_FALSE(c.lru_anchor) << "the LRU anchor is opt-in on the data plane";
  EXPECT_TRUE(parse_agent_config(std::string(kInstalled) + "lru_anchor: true\n", "agent.yaml").lru_anchor);
  EXPECT_EQ(c.cluster, "") << "no cluster unless configured";
  EXPECT_EQ(parse_agent_config(std::string(kInstalled) + "cluster: prod-a\n", "agent.yaml").cluster, "prod-a");
  EXPECT_EQ(c.serve.listen, "unix:/run/tierwise/nbd.sock");
  EXPECT_TRUE(c.serve.volumes.empty());
}

TEST(AgentConfig, VolumesInYamlGoThroughServesChecks) {
  const AgentConfig c = parse_agent_config(with_volumes(R"(volumes:
  - name: vm1
    datastore: /var/lib/vm1.img
    size: 1GiB
    tier: {ram: 256MiB}
    policy: s3fifo
    sequential_cutoff: "off"
)"), "agent.yaml");
  ASSERT_EQ(c.serve.volumes.size(), 1u);
  EXPECT_EQ(c.serve.volumes[0].name, "vm1");
  EXPECT_EQ(c.serve.volumes[0].size_bytes, 1ull << 30);
  EXPECT_EQ(c.serve.volumes[0].tier_bytes, 256ull << 20);
  EXPECT_EQ(c.serve.volumes[0].sequential_cutoff_bytes, 0u);
  EXPECT_EQ(message_of(with_volumes("volumes:\n  - {name: v, datastore: x, tier: {ram: 1MiB}, polcy: lru}\n")),
            "agent.yaml: volumes[0] (v): unknown key \"polcy\"");
}

TEST(AgentConfig, NamesTheProblem) {
  EXPECT_EQ(message_of("api_url: [unclosed").rfind("agent.yaml: not valid YAML: ", 0), 0u) << message_of("api_url: [unclosed");
  EXPECT_EQ(message_of("- a list"), "agent.yaml: must be a YAML map of settings");
  EXPECT_EQ(message_of(std::string(kInstalled) + "api_ulr: x\n"), "agent.yaml: unknown key \"api_ulr\"");
  EXPECT_EQ(message_of("credential_file: x\n"), "agent.yaml: \"gateway_url\" is required (a non-empty string)");
  EXPECT_EQ(message_of("api_url: http://127.0.0.1:8080\ncredential_file: x\n"),
            "agent.yaml: \"gateway_url\" is required (a non-empty string)")
      << "api_url is no gateway";
  EXPECT_EQ(message_of(std::string(kInstalled) + "telemetry_interval_seconds: 0.5\n"),
            "agent.yaml: \"telemetry_interval_seconds\" must be a number of seconds, at least 1");
  EXPECT_EQ(message_of(std::string(kInstalled) + "send_names: maybe\n"), "agent.yaml: \"send_names\" must be true or false");
  EXPECT_EQ(message_of(std::string(kInstalled) + "lru_anchor: [1]\n"), "agent.yaml: \"lru_anchor\" must be true or false");
}

// The agent's configuration before the gateway (api_url + ingest_url, one release).
constexpr const char* kBeforeTheGateway = R"(api_url: http://127.0.0.1:8080
ingest_url: http://127.0.0.1:4318
credential_file: /etc/tierwise/agent.credential
anonymization_key_file: /etc/tierwise/anonymization.key
)";

// Text without its first line that starts with `key`.
std::string without(std::string text, const std::string& key) {
  const size_t at = text.find(key + ":");
  return text.erase(at, text.find('\n', at) + 1 - at);
}

TEST(AgentConfig, GatewayUrlAloneIsTheBaseOfEveryRoute) {
  const AgentConfig c = parse_agent_config(
      "gateway_url: https://gw.example.com/\ncredential_file: c\nanonymization_key_file: k\n", "agent.yaml");
  EXPECT_EQ(c.gateway_url, "https://gw.example.com") << "a base URL: routes are appended to it";
  EXPECT_TRUE(c.warnings.empty());
}

TEST(AgentConfig, IngestUrlAloneIsTheGatewaysFormerName) {
  const AgentConfig c = parse_agent_config(without(kBeforeTheGateway, "api_url"), "agent.yaml");
  EXPECT_EQ(c.gateway_url, "http://127.0.0.1:4318");
  EXPECT_TRUE(c.warnings.empty());
  EXPECT_EQ(message_of("ingest_url: \"\"\ncredential_file: c\nanonymization_key_file: k\n"),
            "agent.yaml: \"ingest_url\" is required (a non-empty string)");
}

TEST(AgentConfig, GatewayUrlAndIngestUrlThatDifferAreAnError) {
  EXPECT_EQ(message_of(std::string(kInstalled) + "ingest_url: http://127.0.0.1:9999\n"),
            "agent.yaml: \"gateway_url\" (http://127.0.0.1:4318) and \"ingest_url\" (http://127.0.0.1:9999) differ: "
            "\"ingest_url\" is the former name of \"gateway_url\", keep only \"gateway_url\"");
  const AgentConfig same = parse_agent_config(std::string(kInstalled) + "ingest_url: http://127.0.0.1:4318/\n", "agent.yaml");
  EXPECT_EQ(same.gateway_url, "http://127.0.0.1:4318") << "the same URL under both names";
}

TEST(AgentConfig, ApiUrlIsAcceptedAndIgnoredWithAWarning) {
  const AgentConfig c = parse_agent_config(kBeforeTheGateway, "agent.yaml");
  EXPECT_EQ(c.gateway_url, "http://127.0.0.1:4318") << "every route at ingest_url, the gateway; none at api_url";
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_EQ(c.warnings[0],
            "api_url is deprecated and ignored: the agent calls every route at gateway_url (docs/agent-gateway.md)");
  const AgentConfig with_gateway = parse_agent_config(std::string(kInstalled) + "api_url: http://127.0.0.1:8080\n", "agent.yaml");
  EXPECT_EQ(with_gateway.gateway_url, "http://127.0.0.1:4318");
  EXPECT_EQ(with_gateway.warnings, c.warnings);
}

TEST(HealthReporter, ReportIsTheApisSchema) {
  HealthSnapshot s{2, 40960, 1 << 30, 1, "HTTP 401: revoked"};
  EXPECT_EQ(HealthReporter::report_json(s, "0.1.0", 42, 2, ""),
            R"({"error_count":3,"last_error":"HTTP 401: revoked","tier_capacity_bytes":1073741824,"tier_used_bytes":40960,"uptime_seconds":42,"version":"0.1.0","volume_count":2})");
  EXPECT_EQ(HealthReporter::report_json({}, "0.1.0", 0, 0, ""),
            R"({"error_count":0,"last_error":null,"tier_capacity_bytes":0,"tier_used_bytes":0,"uptime_seconds":0,"version":"0.1.0","volume_count":0})");
}

TEST(HealthReporter, ReportsToTheGatewaysHealthRoute) {
  testing::HttpReceiver gateway;
  {
    HealthReporter reporter(gateway.url(), "twa_credential", "0.1.0", 60);
    for (int i = 0; i < 500 && gateway.requests().empty(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }  // a first report at once; maybe a last one at the end
  const auto requests = gateway.requests();
  ASSERT_FALSE(requests.empty());
  for (const auto& r : requests) {
    EXPECT_EQ(r.method, "PUT");
    EXPECT_EQ(r.path, "/v1/agent/health");
    EXPECT_EQ(r.headers.at("authorization"), "Bearer twa_credential");
    EXPECT_EQ(r.headers.at("content-type"), "application/json");
    EXPECT_NE(r.body.find(R"("version":"0.1.0")"), std::string::npos) << r.body;
  }
}

}  // namespace
}  // namespace tierwise::agent
