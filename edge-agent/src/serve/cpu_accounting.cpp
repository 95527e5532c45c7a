#include "serve/cpu_accounting.hpp"

#include <cstdio>

namespace tierwise::serve {
namespace {

// One line on stderr when a reading starts failing (`failing` was false).
void warn_once(bool* failing, const std::string& message) {
  if (!*failing) std::fprintf(stderr, "tierwise-agent: cpu telemetry: %s\n", message.c_str());
  *failing = true;
}

void add(telemetry::ConsumerCpuTimes& to, const telemetry::ConsumerCpuTimes& delta) {
  to.user_seconds += delta.user_seconds;
  to.system_seconds += delta.system_seconds;
}

}  // namespace

CpuAccounting::CpuAccounting(const std::vector<std::string>& consumer_cgroups) : volumes_(consumer_cgroups.size()) {
  for (size_t i = 0; i < volumes_.size(); ++i) {
    Volume& v = volumes_[i];
    v.cgroup = consumer_cgroups[i];
    if (!v.cgroup.empty()) close_cgroup(v);  // the baseline
  }
  telemetry::CpuReading<telemetry::HostCpuTimes> host = telemetry::read_host_cpu();
  if (!host.times) warn_once(&host_failing_, host.message);
  host_last_ = host.times;
}

std::optional<telemetry::ConsumerCpuTimes> CpuAccounting::read(pid_t pid, Process& p) {
  telemetry::CpuReading<telemetry::ConsumerCpuTimes> now = telemetry::read_process_cpu(pid);
  if (now.times) {
    p.failing = false;
  } else if (!now.gone()) {  // gone: it exited before its connection went, nothing to say
    warn_once(&p.failing, now.message);
  }
  return now.times;
}

void CpuAccounting::bank(Volume& v, pid_t pid, Process& p) {
  const std::optional<telemetry::ConsumerCpuTimes> now = read(pid, p);
  if (!now) return;  // keeps the reading before, which its detach drops
  if (p.last) add(v.banked, telemetry::consumer_cpu_delta(*p.last, *now));
  p.last = now;
}

void CpuAccounting::attach(size_t volume, pid_t pid) {
  Volume& v = volumes_[volume];
  if (!v.cgroup.empty()) return;
  v.process_seen = true;
  Process& p = v.processes[pid];
  if (p.connections++ > 0) return;  // counted from its first connection
  p.last = read(pid, p);
}

void CpuAccounting::detach(size_t volume, pid_t pid) {
  Volume& v = volumes_[volume];
  const auto it = v.processes.find(pid);
  if (it == v.processes.end()) return;  // a cgroup volume: never attached
  if (--it->second.connections > 0) return;
  bank(v, pid, it->second);
  v.processes.erase(it);
}

void CpuAccounting::close_cgroup(Volume& v) {
  telemetry::CpuReading<telemetry::ConsumerCpuTimes> now = telemetry::read_cgroup_cpu(v.cgroup);
  v.usage.consumer_kind = telemetry::ConsumerKind::kNone;
  if (!now.times) {
    warn_once(&v.cgroup_failing, now.message);
  } else {
    v.cgroup_failing = false;
    if (v.cgroup_last) {
      v.usage.consumer_kind = telemetry::ConsumerKind::kCgroup;
      v.usage.consumer = telemetry::consumer_cpu_delta(*v.cgroup_last, *now.times);
    }
  }
  v.cgroup_last = now.times;
}

void CpuAccounting::close() {
  telemetry::CpuUsage host;
  const telemetry::CpuReading<telemetry::HostCpuTimes> now = telemetry::read_host_cpu();
  const std::optional<uint64_t> cpus = telemetry::online_logical_cpus();
  if (!now.times) {
    warn_once(&host_failing_, now.message);
  } else if (!cpus) {
    warn_once(&host_failing_, "sysconf(_SC_NPROCESSORS_ONLN) failed");
  } else {
    host_failing_ = false;
    if (host_last_) {
      host.host_measured = true;
      host.host_seconds = telemetry::host_cpu_delta(*host_last_, *now.times);
      host.logical_cpus = *cpus;
    }
  }
  host_last_ = now.times;

  for (Volume& v : volumes_) {
    v.usage = host;
    if (!v.cgroup.empty()) {
      close_cgroup(v);
      continue;
    }
    for (auto& [pid, p] : v.processes) bank(v, pid, p);
    if (v.process_seen) {
      v.usage.consumer_kind = telemetry::ConsumerKind::kProcess;
      v.usage.consumer = v.banked;
    }
    v.banked = {};
    v.process_seen = !v.processes.empty();
  }
}

}  // namespace tierwise::serve
