#include "cli/run_command.hpp"

#include <signal.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "agent/agent_config.hpp"
#include "agent/health_reporter.hpp"
#include "cli/export_options.hpp"
#include "cli/serve_run.hpp"
#include "replay/replay.hpp"
#include "replay/replay_options.hpp"

namespace tierwise::cli {
namespace {

int run_agent(const std::string& config_path) {
  const agent::AgentConfig config = agent::load_agent_config(config_path);
  const std::string credential = agent::read_credential(config.credential_file);
  // Before the reporter's thread starts, so that it inherits the mask.
  const sigset_t stop = block_stop_signals();
  agent::HealthReporter reporter(config.api_url, credential, replay::agent_version(), config.health_interval_seconds);
  std::fprintf(stderr, "tierwise-agent: %s: reporting health to %s every %g s\n", config_path.c_str(),
               config.api_url.c_str(), config.health_interval_seconds);
  if (config.serve.volumes.empty()) {
    std::fprintf(stderr, "tierwise-agent: no volumes configured (add them under \"volumes\" in %s); waiting for SIGTERM\n",
                 config_path.c_str());
    int signal = 0;
    sigwait(&stop, &signal);
    std::fprintf(stderr, "tierwise-agent: %s: stopped\n", strsignal(signal));
    return replay::kExitOk;
  }
  ServeOptions o;
  o.ingest_url = config.ingest_url;
  o.token = credential;
  o.key_file = config.anonymization_key_file;
  o.spool_dir = config.spool_dir;
  o.interval_seconds = config.telemetry_interval_seconds;
  o.send_names = config.send_names;
  o.cluster_name = config.cluster;
  ServeHooks hooks;
  hooks.on_status = [&reporter](const ServeStatus& s) {
    reporter.update({s.volume_count, s.tier_used_bytes, s.tier_capacity_bytes, s.error_count, s.last_error});
  };
  return run_serve_config(o, config.serve, hooks);
}

}  // namespace

void register_run_command(CLI::App& app) {
  auto config_path = std::make_shared<std::string>(agent::kDefaultConfigPath);
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run as the installed agent: read agent.yaml, serve its volumes over NBD through the cache "
      "engine with telemetry to ingest (as `serve`), and report health (version, uptime, tier "
      "usage, errors) to the api every health interval, with the agent credential. Runs until "
      "SIGTERM or SIGINT.");
  cmd->add_option("--config", *config_path, "Agent configuration (YAML), written by install.sh")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  cmd->footer("Exit codes as `serve`: 0 stopped by SIGTERM/SIGINT; 1 failure; 2 bad configuration; 4/5 batches "
              "rejected/undelivered.");
  cmd->callback([config_path] { run_with_exit_code([&] { return run_agent(*config_path); }); });
}

}  // namespace tierwise::cli
