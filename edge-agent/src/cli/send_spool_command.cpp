#include "cli/send_spool_command.hpp"

#include <cmath>
#include <iostream>
#include <memory>
#include <string>

#include "serve/byte_size.hpp"
#include "cli/spool_options.hpp"
#include "common/version.hpp"
#include "export/http_sender.hpp"
#include "replay/spool_report.hpp"
#include "sampling/tenant_key.hpp"

namespace tierwise::cli {
namespace {

struct SendSpoolArguments {
  std::string ingest_url;
  std::string token;
  std::string key_file;
  std::string spool_dir;
  std::string spool_max = "256MiB";
  double drain_timeout_seconds = 60;
};

void run(const SendSpoolArguments& args) {
  exporter::SenderConfig config;
  config.ingest_url = args.ingest_url;
  config.token = args.token;
  config.user_agent = versioned_user_agent();
  config.spool_dir = replay::resolve_spool_dir(
      args.spool_dir, args.key_file.empty() ? sampling::default_key_file_path() : args.key_file);
  config.spool_max_bytes = *serve::parse_byte_size(args.spool_max);  // checked by serve::byte_size_validator()
  exporter::HttpSender sender(config);
  sender.drain_for(std::chrono::milliseconds(std::llround(args.drain_timeout_seconds * 1000)));
  sender.stop();
  const exporter::SpoolStats stats = sender.spool_stats();
  replay::print_spool_summary(std::cout, stats);
  std::cout.flush();
  if (const int code = replay::spool_exit_code(stats); code != 0) throw CLI::RuntimeError(code);
}

}  // namespace

void register_send_spool_command(CLI::App& app) {
  auto args = std::make_shared<SendSpoolArguments>();
  CLI::App* cmd = app.add_subcommand(
      "send-spool",
      "Send the batches left in the disk spool (ingest was unreachable during a replay) to "
      "ingest, oldest first, and delete each once ingest accepted it.");
  cmd->add_option("--ingest", args->ingest_url, "Ingest base URL, e.g. http://127.0.0.1:4318")
      ->required();
  cmd->add_option("--token", args->token, "Agent token (Authorization: Bearer)")
      ->envname("TIERWISE_AGENT_TOKEN")
      ->required();
  cmd->add_option("--key-file", args->key_file,
                  "Tenant key file whose directory holds the default spool. Default: "
                  "$TIERWISE_AGENT_KEY_FILE or /etc/tierwise/anonymization.key");
  add_spool_options(*cmd, args->spool_dir, args->spool_max, args->drain_timeout_seconds);
  cmd->footer(
      "Exit codes: 0 spool empty; 1 failure (spool unreadable); 4 ingest rejected spooled "
      "batches (e.g. HTTP 401); 5 batches still spooled after --drain-timeout.");
  cmd->callback([args] { run(*args); });
}

}  // namespace tierwise::cli
