// serve's storage-bound CPU (proto/METRICS.md `system.cpu.time`,
// `system.cpu.logical.count`, `tierwise.consumer.cpu.time`): the host's CPU
// time and each volume's consumer's between two interval closes. The kernel's
// counters (telemetry/cpu_usage.hpp) are read only at a close, an attach and a
// detach, never per I/O.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "telemetry/cpu_usage.hpp"

namespace tierwise::serve {

/*
 * Lifecycle of a CpuAccounting (one thread: serve's reactor)
 *
 * 1. Construct with each volume's consumer_cgroup (empty: the volume's
 *    consumer is the processes attached to its export): reads the baselines
 *    of /proc/stat and of every cgroup's cpu.stat.
 * 2. attach(volume, pid) / detach(volume, pid), once per connection of a
 *    known peer process (IoObserver::on_attach / on_detach): a pid attached
 *    by several connections of the volume counts once, from its first attach
 *    (its baseline is read) to its last detach (its CPU time since the last
 *    reading is banked into the current interval, so a client that leaves
 *    before the close is still counted). Nothing for a volume with a cgroup:
 *    the cgroup wins over the socket peers.
 * 3. close(), at each interval's end: reads /proc/stat once and every
 *    volume's consumer (each attached process, or the cgroup) and makes
 *    usage(volume) the interval's CpuUsage: the host's CPU time by mode
 *    since the previous close, the online CPUs, and the consumer's CPU time
 *    in the interval: kProcess when a process was attached during it, kCgroup
 *    when its cgroup was read at this close and the one before.
 *
 * A file that cannot be read leaves that figure out of the interval (a
 * process gone before its detach, silently; anything else with one line on
 * stderr naming the file when it starts failing); the next reading that
 * succeeds becomes the new baseline.
 */
class CpuAccounting {
 public:
  explicit CpuAccounting(const std::vector<std::string>& consumer_cgroups);

  void attach(size_t volume, pid_t pid);
  void detach(size_t volume, pid_t pid);
  void close();
  // The interval's usage of `volume` as of the last close() (before the
  // first: not measured).
  const telemetry::CpuUsage& usage(size_t volume) const { return volumes_[volume].usage; }

 private:
  // A process attached to a volume's export.
  struct Process {
    size_t connections = 0;
    std::optional<telemetry::ConsumerCpuTimes> last;  // reading the next delta starts from
    bool failing = false;
  };
  struct Volume {
    std::string cgroup;  // empty: the consumer is the attached processes
    std::optional<telemetry::ConsumerCpuTimes> cgroup_last;
    bool cgroup_failing = false;
    std::map<pid_t, Process> processes;
    bool process_seen = false;            // a process was attached in the interval
    telemetry::ConsumerCpuTimes banked;   // CPU time in the interval of processes read so far
    telemetry::CpuUsage usage;            // of the last closed interval
  };

  // /proc/`pid`/stat; std::nullopt when it cannot be read.
  static std::optional<telemetry::ConsumerCpuTimes> read(pid_t pid, Process& p);
  // Reads `pid` and adds its time since `p.last` to `v.banked`; p.last becomes the reading.
  static void bank(Volume& v, pid_t pid, Process& p);
  void close_cgroup(Volume& v);

  std::vector<Volume> volumes_;
  std::optional<telemetry::HostCpuTimes> host_last_;
  bool host_failing_ = false;
};

}  // namespace tierwise::serve
