// One virtual disk's vscsiStats histograms as one interval of agent telemetry
// (telemetry::IntervalMetrics), so `import-vscsistats` sends them through the
// same OTLP encoding, ingest and rollups as the agent's own (proto/METRICS.md).
#pragma once

#include "telemetry/interval_metrics.hpp"
#include "vscsistats/vscsistats_csv.hpp"

namespace tierwise::vscsistats {

// The interval of `disk`:
// - ioLength read/write -> tierwise.io.size (sum = mean x count, bytes) and
//   the front-end operations and bytes of tierwise.io.operations / .bytes
//   (vscsiStats gives no bytes per bin: tierwise.io.size.bytes stays empty;
//   its "all" histogram is the sum of read and write and is not sent);
// - seek distance (all/read/write, no sum), closest of 16 (all), outstanding
//   I/Os and interarrival (all/read/write; sum = mean x count) -> their
//   families; latency (all/read/write) -> tierwise.io.latency.vscsistats.
// min and max are vscsiStats'. No cache figures: the disk has no Tierwise tier.
telemetry::IntervalMetrics interval_of(const Disk& disk);

}  // namespace tierwise::vscsistats
