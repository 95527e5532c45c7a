#include "serve/serve_run.hpp"

#include <signal.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "cache/eviction/eviction_policy.hpp"
#include "common/exit_code.hpp"
#include "common/version.hpp"
#include "serve/host_name.hpp"
#include "serve/serve_config.hpp"
#include "serve/serve_policy.hpp"
#include "serve/serve_telemetry.hpp"
#include "serve/serve_volumes.hpp"
#include "frontend/nbd/server.hpp"
#include "replay/spool_report.hpp"
#include "sampling/tenant_key.hpp"

namespace tierwise::serve {
namespace {

namespace nbd = frontend::nbd;

// Submission slots of the shared io_uring (requests in flight over all
// connections times the datastore requests each may need).
constexpr unsigned kRingEntries = 1024;

int64_t unix_now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// "unix:<path>" or "tcp:<ipv4>:<port>" (the volumes file), with the command
// line's --socket / --listen taking precedence.
nbd::ListenAddress listen_address(const ServeOptions& o, const ServeConfig& c) {
  nbd::ListenAddress a;
  std::string spec = c.listen;
  if (!o.socket_path.empty()) spec = "unix:" + o.socket_path;
  if (!o.tcp_listen.empty()) spec = "tcp:" + o.tcp_listen;
  if (spec.rfind("unix:", 0) == 0 && spec.size() > 5) {
    a.unix_path = spec.substr(5);
    return a;
  }
  if (spec.rfind("tcp:", 0) == 0) {
    const std::string hp = spec.substr(4);
    const size_t colon = hp.rfind(':');
    if (colon != std::string::npos && colon > 0) {
      a.tcp_host = hp.substr(0, colon);
      const std::string port = hp.substr(colon + 1);
      char* end = nullptr;
      const unsigned long p = std::strtoul(port.c_str(), &end, 10);
      if (!port.empty() && *end == '\0' && p <= 65535) {
        a.tcp_port = static_cast<uint16_t>(p);
        return a;
      }
    }
  }
  if (spec.empty()) throw std::invalid_argument("no listen address: give --socket PATH, --listen HOST:PORT or \"listen\" in the volumes file");
  throw std::invalid_argument("listen address must be unix:<path> or tcp:<ipv4>:<port>: " + spec);
}

std::string describe(const nbd::ListenAddress& a, const nbd::NbdServer& s) {
  if (!a.unix_path.empty()) return "unix:" + a.unix_path;
  return "tcp:" + a.tcp_host + ":" + std::to_string(s.tcp_port());
}

std::string mib(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

void print_lines(const std::vector<IntervalLine>& lines, double seconds) {
  for (const IntervalLine& l : lines) {
    const uint64_t blocks = l.read_hit_blocks + l.read_miss_blocks;
    char ratio[32] = "-";
    if (blocks > 0) {
      std::snprintf(ratio, sizeof ratio, "%.1f %%",
                    100.0 * static_cast<double>(l.read_hit_blocks) / static_cast<double>(blocks));
    }
    std::fprintf(stderr,
                 "tierwise-agent: interval: volume %s: %.0f reads/s, %.0f writes/s, read hit ratio %s\n",
                 l.volume.c_str(), static_cast<double>(l.reads) / seconds,
                 static_cast<double>(l.writes) / seconds, ratio);
  }
}

// Signals are taken through a signalfd in the reactor loop: block them in
// every thread (the export thread inherits the mask).
int signal_fd() {
  const sigset_t set = block_stop_signals();
  const int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd < 0) throw std::runtime_error(std::string("signalfd: ") + std::strerror(errno));
  return fd;
}

int interval_timer_fd(double seconds) {
  const int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (fd < 0) throw std::runtime_error(std::string("timerfd: ") + std::strerror(errno));
  itimerspec spec{};
  const auto ns = static_cast<int64_t>(std::llround(seconds * 1e9));
  spec.it_interval.tv_sec = ns / 1'000'000'000;
  spec.it_interval.tv_nsec = ns % 1'000'000'000;
  spec.it_value = spec.it_interval;
  timerfd_settime(fd, 0, &spec, nullptr);
  return fd;
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

ServeStatus status_of(const std::vector<std::unique_ptr<ServedVolume>>& volumes, const exporter::HttpSender* sender) {
  ServeStatus s;
  s.volume_count = volumes.size();
  for (const auto& v : volumes) {
    s.tier_used_bytes += v->engine->counters().occupancy_bytes;
    s.tier_capacity_bytes += v->engine->counters().capacity_bytes;  // live: a policy's size once applied
  }
  if (sender != nullptr) {
    const exporter::DeliveryStats st = sender->stats(0);
    const exporter::SpoolStats spool = sender->spool_stats();
    s.error_count = st.rejected + st.failed + spool.dropped;
    s.last_error = !st.first_problem.empty() ? st.first_problem : spool.first_problem;
  }
  return s;
}

void validate(const ServeOptions& o) {
  if (o.interval_seconds < 1) throw std::invalid_argument("--interval must be at least 1 s");
  if (!(o.sample_rate > 0 && o.sample_rate <= 1)) throw std::invalid_argument("--sample-rate must be in (0, 1]");
  if (!o.socket_path.empty() && !o.tcp_listen.empty()) {
    throw std::invalid_argument("give --socket or --listen, not both");
  }
  if (!o.ingest_url.empty() && o.token.empty()) throw std::invalid_argument("--ingest needs --token (the agent token)");
  if (!o.ingest_url.empty() && !o.telemetry) throw std::invalid_argument("--ingest and --no-telemetry exclude each other");
  if (o.lru_anchor && !o.telemetry) throw std::invalid_argument("--lru-anchor and --no-telemetry exclude each other");
}

}  // namespace

sigset_t block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

int run_serve(const ServeOptions& options) {
  return run_serve_config(options, load_serve_config(options.config_path), ServeHooks{});
}

int run_serve_config(const ServeOptions& input, const ServeConfig& config, const ServeHooks& hooks) {
  validate(input);
  ServeOptions o = input;
  if (o.host_name.empty()) o.host_name = local_host_name();
  const nbd::ListenAddress address = listen_address(o, config);
  const Fd signals{signal_fd()};

  std::unique_ptr<blockdev::UringQueue> queue;
  if (const int rc = blockdev::UringQueue::create(kRingEntries, &queue); rc != 0) {
    throw std::runtime_error(std::string("io_uring setup failed: ") + std::strerror(-rc));
  }
  std::vector<std::unique_ptr<ServedVolume>> volumes;
  std::vector<nbd::Volume> exports;
  std::vector<LiveTelemetry::VolumeSource> sources;
  for (const VolumeConfig& c : config.volumes) {
    volumes.push_back(open_volume(c, *queue, [name = c.name](std::string_view event) {
      std::fprintf(stderr, "tierwise-agent: volume %s: %.*s\n", name.c_str(), static_cast<int>(event.size()),
                   event.data());
    }));
    const ServedVolume& v = *volumes.back();
    nbd::Volume e;
    e.info = nbd::ExportInfo{c.name, "tierwise volume " + c.name, v.size_bytes,
                             c.write_back ? nbd::kWriteBackTransmissionFlags : nbd::kVolumeTransmissionFlags};
    e.engine = v.engine.get();
    exports.push_back(std::move(e));
    sources.push_back({c.name, v.engine.get(), c.consumer_cgroup});
    const std::string tier = c.tier_file.empty() ? "RAM tier " + mib(c.tier_bytes)
                                                 : "tier " + c.tier_file + " " + mib(c.tier_bytes);
    std::fprintf(stderr, "tierwise-agent: volume %s: %s, datastore %s (%s%s), %s, policy %s\n",
                 c.name.c_str(), mib(v.size_bytes).c_str(), c.datastore.c_str(),
                 v.block_device ? "block device" : "file",
                 v.datastore->direct_io() ? ", O_DIRECT" : ", buffered", tier.c_str(),
                 std::string(cache::eviction::policy_name(v.engine->index().policy().kind())).c_str());
    if (c.write_back) {
      std::fprintf(stderr, "tierwise-agent: volume %s: write-back (WB+%zu, journal %u entries), %s\n",
                   c.name.c_str(), c.peers.size(), c.journal_entries, v.recovery.c_str());
    }
  }

  std::unique_ptr<sampling::KeyedHasher> hasher;
  std::unique_ptr<sampling::ShardsSampler> sampler;
  std::unique_ptr<exporter::HttpSender> sender;
  std::unique_ptr<LiveTelemetry> telemetry;
  if (o.telemetry) {
    const std::string key_path = o.key_file.empty() ? sampling::default_key_file_path() : o.key_file;
    bool created = false;
    const sampling::TenantKey key = sampling::load_or_create_key_file(key_path, &created);
    if (created) std::fprintf(stderr, "tierwise-agent: created a new tenant key in %s\n", key_path.c_str());
    hasher = std::make_unique<sampling::KeyedHasher>(key);
    sampler = std::make_unique<sampling::ShardsSampler>(*hasher, o.sample_rate);
    if (!o.ingest_url.empty()) {
      exporter::SenderConfig sc;
      sc.ingest_url = o.ingest_url;
      sc.token = o.token;
      sc.user_agent = versioned_user_agent();
      sc.spool_dir = replay::resolve_spool_dir(o.spool_dir, key_path);
      sc.spool_max_bytes = o.spool_max_bytes;
      sc.collector_url = o.otlp_endpoint;
      sc.collector_headers = o.otlp_headers;
      sender = std::make_unique<exporter::HttpSender>(sc);
    }
    telemetry = std::make_unique<LiveTelemetry>(
        LiveTelemetry::Options{o.host_name, o.cluster_name, o.send_names, agent_version(), o.lru_anchor,
                               exporter::VolumeExporter::working_set_dir_beside(replay::resolve_spool_dir(o.spool_dir, key_path))},
        sources, *hasher,
        *sampler, sender.get(), unix_now_us());
  }

  std::unique_ptr<nbd::NbdServer> server;
  if (const int rc = nbd::NbdServer::create(address, *queue, std::move(exports), telemetry.get(), &server);
      rc != 0) {
    throw std::runtime_error("cannot listen on " + (address.unix_path.empty() ? address.tcp_host + ":" + std::to_string(address.tcp_port) : address.unix_path) +
                             ": " + std::strerror(-rc));
  }
  server->watch(signals.fd, [&] {
    signalfd_siginfo info{};
    if (::read(signals.fd, &info, sizeof info) != sizeof info) return;
    std::fprintf(stderr, "tierwise-agent: %s: no new requests; finishing those in flight on %zu connection(s)\n",
                 strsignal(static_cast<int>(info.ssi_signo)), server->open_connections());
    server->stop();
  });
  // WB+n: peer acknowledgements and failures wake the loop (settle() ticks the engines).
  for (const auto& v : volumes) {
    if (!v->peers) continue;
    const int fd = v->peers->wake_fd();
    server->watch(fd, [fd] {
      uint64_t count = 0;
      [[maybe_unused]] const ssize_t got = ::read(fd, &count, sizeof count);
    });
  }
  // Policy pull: new desired versions wake the loop, which applies them to the engines.
  std::unique_ptr<ServePolicy> policy;
  if (sender && o.policy_pull) {
    policy::PolicyClientConfig pull;
    pull.service_url = o.ingest_url;
    pull.token = o.token;
    pull.user_agent = versioned_user_agent();
    policy = std::make_unique<ServePolicy>(std::move(pull), volumes, *hasher);
    server->watch(policy->wake_fd(), [&policy] { policy->on_wake(); });
  }
  const Fd timer{o.telemetry ? interval_timer_fd(o.interval_seconds) : -1};
  if (telemetry) {
    server->watch(timer.fd, [&] {
      uint64_t ticks = 0;
      if (::read(timer.fd, &ticks, sizeof ticks) != sizeof ticks) return;
      print_lines(telemetry->close_interval(unix_now_us()), o.interval_seconds);
      if (hooks.on_status) hooks.on_status(status_of(volumes, sender.get()));
    });
  }
  if (hooks.on_status) hooks.on_status(status_of(volumes, sender.get()));
  std::fprintf(stderr, "tierwise-agent: serving %zu volume(s) over NBD on %s (telemetry %s; policy pull %s)\n",
               volumes.size(), describe(address, *server).c_str(),
               !o.telemetry ? "off" : sender ? ("to " + o.ingest_url).c_str() : "collected, not exported",
               policy ? "on" : "off");

  int code = kExitOk;
  if (const int rc = server->run(); rc != 0) {
    std::fprintf(stderr, "tierwise-agent: event loop failed: %s\n", std::strerror(-rc));
    code = kExitFailure;
  }
  if (policy) policy->stop();
  if (const int rc = flush_volumes(volumes, *queue); rc != 0) {
    std::fprintf(stderr, "tierwise-agent: flushing the datastores failed: %s\n", std::strerror(-rc));
    code = kExitFailure;
  } else {
    std::fprintf(stderr, "tierwise-agent: datastores flushed\n");
  }
  if (telemetry) telemetry->finish(unix_now_us());
  if (sender) {
    std::fprintf(stderr, "tierwise-agent: waiting for the export queue and spool to drain (at most %g s)\n",
                 o.drain_timeout_seconds);
    sender->drain_for(std::chrono::milliseconds(std::llround(o.drain_timeout_seconds * 1000)));
    sender->stop();
    const exporter::SpoolStats spool = sender->spool_stats();
    const exporter::DeliveryStats st = sender->stats(0);
    replay::print_spool_summary(std::cerr, spool);
    replay::print_collector_summary(std::cerr, *sender, 1);
    std::fprintf(stderr, "tierwise-agent: export: %llu batches sent, %llu rejected, %llu failed\n",
                 static_cast<unsigned long long>(st.sent), static_cast<unsigned long long>(st.rejected),
                 static_cast<unsigned long long>(st.failed));
    if (code == kExitOk) {
      if (st.rejected > 0) code = kExitRejected;
      else if (st.failed > 0) code = kExitUndelivered;
      else code = replay::spool_exit_code(spool);
    }
  }
  for (const auto& v : volumes) {
    const cache::CacheCounters& c = v->engine->counters();
    std::fprintf(stderr, "tierwise-agent: volume %s: %llu block hits, %llu block misses, %s in the tier\n",
                 v->config.name.c_str(),
                 static_cast<unsigned long long>(c.hit_blocks[0] + c.hit_blocks[1]),
                 static_cast<unsigned long long>(c.miss_blocks[0] + c.miss_blocks[1]),
                 mib(c.occupancy_bytes).c_str());
  }
  std::fprintf(stderr, "tierwise-agent: stopped (%llu connection(s) served)\n",
               static_cast<unsigned long long>(server->accepted_connections()));
  return code;
}

}  // namespace tierwise::serve
