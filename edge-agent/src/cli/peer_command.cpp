#include "cli/peer_command.hpp"

#include <csignal>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "common/exit_code.hpp"
#include "replication/replica_server.hpp"

namespace tierwise::cli {
namespace {

struct PeerOptions {
  std::string listen = "127.0.0.1:0";
  std::string port_file;
  int64_t ack_delay_us = 0;
  std::string store;
};

void run_peer(const PeerOptions& o) {
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);  // the server's threads inherit the mask
  std::unique_ptr<replication::ReplicaServer> server;
  const auto on_event = [](const std::string& line) { std::cerr << "tierwise-agent peer: " << line << '\n'; };
  if (const int rc = replication::ReplicaServer::start(o.listen, &server, std::chrono::microseconds(o.ack_delay_us),
                                                       on_event, o.store);
      rc != 0) {
    std::cerr << "tierwise-agent peer: cannot start on " << o.listen
              << (o.store.empty() ? "" : " with the store " + o.store) << ": " << std::strerror(-rc) << '\n';
    throw CLI::RuntimeError(kExitFailure);
  }
  if (!o.port_file.empty()) {
    std::ofstream(o.port_file + ".tmp") << server->port() << '\n';
    std::rename((o.port_file + ".tmp").c_str(), o.port_file.c_str());
  }
  std::cerr << "tierwise-agent peer: listening on port " << server->port() << '\n';
  int signal = 0;
  sigwait(&stop, &signal);
  std::cerr << "tierwise-agent peer: stopping; " << server->held_bytes()
            << " bytes of replicas held\n";
}

}  // namespace

void register_peer_command(CLI::App& app) {
  auto options = std::make_shared<PeerOptions>();
  CLI::App* command = app.add_subcommand(
      "peer",
      "Hold replicas of other agents' write-back journal records (WB+n) until their owners "
      "destage them, and destage them to the shared datastore when an owner is gone (its lease "
      "unrenewed for its lease_ms); runs until SIGINT or SIGTERM.");
  command->add_option("--listen", options->listen, "TCP address host:port (port 0: any free port)")
      ->capture_default_str();
  command->add_option("--port-file", options->port_file,
                      "Write the port listened on to this file (for --listen ...:0)");
  command->add_option("--store", options->store,
                      "Keep the replicas in files in this directory, flushed before each acknowledgement, and "
                      "load them at start (persistent replicas; default: memory only)");
  command->add_option("--ack-delay-us", options->ack_delay_us,
                      "Send each acknowledgement this many microseconds after storing the record: a stand-in "
                      "for a slow replica link in tests (default 0)")
      ->check(CLI::Range(int64_t{0}, int64_t{10'000'000}));
  command->callback([options] { run_peer(*options); });
}

}  // namespace tierwise::cli
