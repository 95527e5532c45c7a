#include "cli/enroll_command.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "agent/agent_config.hpp"
#include "agent/gateway_client.hpp"
#include "cli/export_options.hpp"
#include "common/exit_code.hpp"
#include "common/version.hpp"
#include "serve/host_name.hpp"
#include "sampling/keyed_hash.hpp"
#include "sampling/tenant_key.hpp"

namespace tierwise::cli {
namespace {

struct EnrollArguments {
  std::string config_path = agent::kDefaultConfigPath;
  std::string token;
};

bool has_credential(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && st.st_size > 0;
}

// Writes `credential` to `path` with mode 0600 (a temporary file renamed over
// it, so a crash leaves no half-written credential).
void write_credential(const std::string& path, const std::string& credential) {
  const std::string temporary = path + ".tmp";
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot create " + temporary + ": " + std::strerror(errno));
  const std::string line = credential + "\n";
  const bool ok = ::fchmod(fd, 0600) == 0 && ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) &&
                  ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(temporary.c_str(), path.c_str()) != 0) {
    ::unlink(temporary.c_str());
    throw std::runtime_error("cannot write the credential to " + path + ": " + std::strerror(errno));
  }
}

int enroll(const EnrollArguments& args) {
  const agent::AgentConfig config = agent::load_agent_config(args.config_path);
  if (has_credential(config.credential_file)) {
    std::fprintf(stderr, "tierwise-agent: already enrolled (credential in %s); the token was not used\n",
                 config.credential_file.c_str());
    return kExitOk;
  }
  if (args.token.empty()) throw std::invalid_argument("--token is required (an enrollment token, twe_...)");
  bool created = false;
  const sampling::TenantKey key = sampling::load_or_create_key_file(config.anonymization_key_file, &created);
  if (created) {
    std::fprintf(stderr, "tierwise-agent: generated the tenant's anonymization key in %s (give it to further hosts)\n",
                 config.anonymization_key_file.c_str());
  }
  const std::string host_id = sampling::KeyedHasher(key).host_id(serve::local_host_name());
  const nlohmann::json body = {{"enrollment_token", args.token}, {"host_id", host_id}, {"version", agent_version()}};
  const std::string url = config.gateway_url + "/v1/agents/enroll";
  const agent::GatewayAnswer answer = agent::send_json("POST", url, "", body.dump());
  if (answer.status != 201) {
    std::fprintf(stderr, "tierwise-agent: enrollment refused: %s\n", agent::describe(answer, url).c_str());
    return answer.status >= 400 && answer.status < 500 ? kExitRejected : kExitFailure;
  }
  const nlohmann::json enrolled = nlohmann::json::parse(answer.body, nullptr, false);
  if (!enrolled.is_object() || !enrolled.contains("credential") || !enrolled["credential"].is_string()) {
    throw std::runtime_error("enrollment answer without a credential: " + answer.body);
  }
  write_credential(config.credential_file, enrolled["credential"].get<std::string>());
  std::fprintf(stderr, "tierwise-agent: enrolled as agent %s (host id %s); credential written to %s (mode 0600)\n",
               enrolled.value("agent_id", "?").c_str(), host_id.c_str(), config.credential_file.c_str());
  return kExitOk;
}

}  // namespace

void register_enroll_command(CLI::App& app) {
  auto args = std::make_shared<EnrollArguments>();
  CLI::App* cmd = app.add_subcommand(
      "enroll",
      "Exchange a one-time enrollment token for this agent's credential (POST /v1/agents/enroll at "
      "agent.yaml's gateway_url, with the keyed hash of the host name and the agent version), written to the credential file of "
      "agent.yaml (mode 0600). Creates the anonymization key when its file does not exist. Does "
      "nothing when the credential file exists already.");
  cmd->add_option("--config", args->config_path, "Agent configuration (YAML)")->capture_default_str()->check(CLI::ExistingFile);
  cmd->add_option("--token", args->token, "Enrollment token (POST /v1/enrollment-tokens)")->envname("TIERWISE_ENROLLMENT_TOKEN");
  cmd->footer("Exit codes: 0 enrolled or already enrolled; 1 failure (gateway unreachable); 2 bad configuration; 4 the "
              "gateway refused the token (unknown, used or expired: the message says which).");
  cmd->callback([args] { run_with_exit_code([&] { return enroll(*args); }); });
}

}  // namespace tierwise::cli
