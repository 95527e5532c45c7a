#include "cli/run_command.hpp"

#include <signal.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "agent/agent_config.hpp"
#include "agent/health_reporter.hpp"
#include "cli/export_options.hpp"
#include "common/exit_code.hpp"
#include "common/version.hpp"
#include "serve/serve_run.hpp"
#include "replay/replay.hpp"

namespace tierwise::cli {
namespace {

// What `serve` and `replay` send as this agent: the gateway (their --ingest),
// credential, key, spool, names and cluster from agent.yaml (Options:
// ServeOptions or ReplayOptions).
template <typename Options>
void set_agent_export(Options& o, const agent::AgentConfig& config, const std::string& credential) {
  o.ingest_url = config.gateway_url;
  o.token = credential;
  o.key_file = config.anonymization_key_file;
  o.spool_dir = config.spool_dir;
  o.send_names = config.send_names;
  o.cluster_name = config.cluster;
}

// Replays `traces` into the gateway as this agent, as `replay` would; returns
// replay's exit code.
int replay_traces(const agent::AgentConfig& config, const std::string& credential,
                  const std::vector<std::string>& traces) {
  replay::ReplayOptions o;
  o.traces = traces;
  set_agent_export(o, config, credential);
  std::fprintf(stderr, "tierwise-agent: replaying %zu trace(s) into %s\n", traces.size(), config.gateway_url.c_str());
  return replay::run_replay(o);
}

int run_agent(const std::string& config_path, const std::vector<std::string>& replay_first) {
  const agent::AgentConfig config = agent::load_agent_config(config_path);
  const std::string credential = agent::read_credential(config.credential_file);
  // Before the reporter's thread starts, so that it inherits the mask.
  const sigset_t stop = serve::block_stop_signals();
  agent::HealthReporter reporter(config.gateway_url, credential, agent_version(), config.health_interval_seconds);
  std::fprintf(stderr, "tierwise-agent: %s: reporting health to %s every %g s\n", config_path.c_str(),
               config.gateway_url.c_str(), config.health_interval_seconds);
  if (!replay_first.empty()) {
    if (const int rc = replay_traces(config, credential, replay_first); rc != kExitOk) return rc;
  }
  if (config.serve.volumes.empty()) {
    std::fprintf(stderr, "tierwise-agent: no volumes configured (add them under \"volumes\" in %s); waiting for SIGTERM\n",
                 config_path.c_str());
    int signal = 0;
    sigwait(&stop, &signal);
    std::fprintf(stderr, "tierwise-agent: %s: stopped\n", strsignal(signal));
    return kExitOk;
  }
  serve::ServeOptions o;
  set_agent_export(o, config, credential);
  o.interval_seconds = config.telemetry_interval_seconds;
  o.lru_anchor = config.lru_anchor;
  serve::ServeHooks hooks;
  hooks.on_status = [&reporter](const serve::ServeStatus& s) {
    reporter.update({s.volume_count, s.tier_used_bytes, s.tier_capacity_bytes, s.error_count, s.last_error});
  };
  return serve::run_serve_config(o, config.serve, hooks);
}

}  // namespace

void register_run_command(CLI::App& app) {
  auto config_path = std::make_shared<std::string>(agent::kDefaultConfigPath);
  auto replay_first = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run as the installed agent: read agent.yaml, serve its volumes over NBD through the cache "
      "engine with telemetry to the agent gateway (as `serve` with --ingest gateway_url), and report "
      "health (version, uptime, tier usage, errors) to the gateway every health interval, with the "
      "agent credential (docs/agent-gateway.md). Runs until SIGTERM or SIGINT.");
  cmd->add_option("--config", *config_path, "Agent configuration (YAML), written by install.sh")
      ->capture_default_str()
      ->check(CLI::ExistingFile);
  cmd->add_option("--replay", *replay_first,
                  "Trace files to replay into the gateway as this agent before serving (as `replay` with the "
                  "configuration's credential, key, spool, names and cluster): a volume's recorded I/O, "
                  "e.g. for a trial; a volume of agent.yaml named as a trace (its file name without "
                  ".vscsi/.csv/.gz/.bz2) is the same volume, so its policies apply to it")
      ->check(CLI::ExistingFile);
  cmd->footer("Exit codes as `serve`: 0 stopped by SIGTERM/SIGINT; 1 failure; 2 bad configuration; 4/5 batches "
              "rejected/undelivered; with --replay, replay's exit code when the replay did not succeed.");
  cmd->callback([config_path, replay_first] { run_with_exit_code([&] { return run_agent(*config_path, *replay_first); }); });
}

}  // namespace tierwise::cli
