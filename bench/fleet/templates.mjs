/**
 * The fleet's templates: what the real agent sends for real traces (bench/ingest-load/capture.mjs,
 * `tierwise-agent replay`), cut into one stream per traced volume, so that a simulated volume
 * sends real intervals and real sampled references under its own ids and times.
 *
 * volumeTemplates({agentBin, traces, workDir, references}) -> VolumeTemplate[]
 *   references: the batches as agents before 2026-12-08 sent them: the sampled references (the
 *     replay runs in a cluster, which keeps them), without the cluster id, the agent's
 *     working-set shares and their summary (default false: as the agent sends them now)
 *   VolumeTemplate: {trace, hostId, volumeId, startNano, slots, intervals: (Interval | undefined)[], refBatches: ReferenceTemplate[][]}
 *     startNano:    the start of the stream's first interval, Unix ns (bigint)
 *     slots:        the stream's length in 10-s intervals (slot = (interval start - stream start) / 10 s)
 *     intervals[s]: the interval of slot s, or undefined when the volume was idle then
 *     refBatches[s]: the reference batches whose last reference falls in slot s, in send order
 *                    (reference-template.mjs: encoded once, patched per send)
 *   Interval: {body, endNano, timeOffsets, hostIdOffsets, volumeIdOffsets}
 *     body: an ExportMetricsServiceRequest holding only this volume's ResourceMetrics. Requests
 *           are concatenations of such bodies (a repeated field's encodings concatenate).
 *     timeOffsets: byte offsets of every fixed64 start_time_unix_nano / time_unix_nano value
 *     hostIdOffsets, volumeIdOffsets: byte offsets of the host.id / tierwise.volume.id strings
 * Throws when a trace yields no metrics.
 */
import path from 'node:path';
import proto from '@tierwise/proto';
import { captureBatches } from '../ingest-load/capture.mjs';
import { referenceTemplate } from './reference-template.mjs';

const { ExportMetricsServiceRequest, ReferenceBatch } = proto;
export const INTERVAL_NANO = 10_000_000_000n;

function attribute(resourceMetrics, key) {
  return resourceMetrics.resource?.attributes?.find((a) => a.key === key)?.value?.stringValue ?? '';
}

/** Every offset in `body` where `needle` starts. */
function offsetsOf(body, needle) {
  const found = [];
  for (let at = body.indexOf(needle); at !== -1; at = body.indexOf(needle, at + 1)) found.push(at);
  return found;
}

/** The data points' distinct start and end times of one ResourceMetrics, nanoseconds. */
function pointTimes(resourceMetrics) {
  const times = new Set();
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      for (const point of metric.sum?.dataPoints ?? metric.histogram?.dataPoints ?? metric.gauge?.dataPoints ?? []) {
        if (point.startTimeUnixNano) times.add(BigInt(point.startTimeUnixNano));
        times.add(BigInt(point.timeUnixNano));
      }
    }
  }
  return times;
}

function intervalOf(resourceMetrics) {
  const body = Buffer.from(ExportMetricsServiceRequest.encode({ resourceMetrics: [resourceMetrics] }));
  const times = pointTimes(resourceMetrics);
  const timeOffsets = [];
  for (const time of times) {
    const needle = Buffer.alloc(8);
    needle.writeBigUInt64LE(time);
    timeOffsets.push(...offsetsOf(body, needle));
  }
  return {
    body,
    endNano: [...times].reduce((a, b) => (b > a ? b : a), 0n),
    timeOffsets,
    hostIdOffsets: offsetsOf(body, Buffer.from(attribute(resourceMetrics, 'host.id'))),
    volumeIdOffsets: offsetsOf(body, Buffer.from(attribute(resourceMetrics, 'tierwise.volume.id'))),
  };
}

/** The time of a batch's last sampled reference (carried or summarised; its base time when it has none), Unix ns. */
function lastReferenceNano(batch) {
  if (batch.referenceSummary) return BigInt(batch.referenceSummary.lastReferenceUnixNano);
  const last = batch.references.at(-1);
  return BigInt(batch.baseTimeUnixNano) + BigInt(last ? last.timeOffsetUs : 0) * 1000n;
}

export async function volumeTemplates({ agentBin, traces, workDir, references = false }) {
  const templates = [];
  for (const trace of traces) {
    const captured = await captureBatches({ agentBin, trace, workDir, args: references ? ['--cluster', 'fleet'] : [] });
    const byVolume = new Map();
    const volume = (id) => {
      if (!byVolume.has(id)) byVolume.set(id, { trace: path.basename(trace), volumeId: id, hostId: '', intervals: [], refs: [] });
      return byVolume.get(id);
    };
    for (const body of captured.metrics) {
      for (const resourceMetrics of ExportMetricsServiceRequest.decode(body).resourceMetrics) {
        if (references) {  // the replay's cluster is only there to keep the references
          resourceMetrics.resource.attributes = resourceMetrics.resource.attributes.filter((a) => a.key !== 'tierwise.cluster.id');
        }
        const v = volume(attribute(resourceMetrics, 'tierwise.volume.id'));
        v.hostId = attribute(resourceMetrics, 'host.id');
        v.intervals.push(intervalOf(resourceMetrics));
      }
    }
    for (const body of captured.refs) {
      const batch = ReferenceBatch.decode(body);
      volume(batch.volumeId).refs.push(references
        ? { ...batch, clusterId: '', workingSet: undefined, hostTierWorkingSet: undefined, referenceSummary: undefined }
        : batch);
    }
    for (const v of byVolume.values()) {
      if (v.intervals.length === 0) continue;
      const startNano = v.intervals[0].endNano - INTERVAL_NANO;
      const slotOf = (nano) => Math.max(0, Number((nano - startNano - 1n) / INTERVAL_NANO));
      const slots = slotOf(v.intervals.at(-1).endNano) + 1;
      const intervals = new Array(slots);
      for (const interval of v.intervals) intervals[slotOf(interval.endNano)] = interval;
      const refBatches = Array.from({ length: slots }, () => []);
      for (const batch of v.refs) refBatches[Math.min(slots - 1, slotOf(lastReferenceNano(batch)))].push(referenceTemplate(batch));
      templates.push({ trace: v.trace, hostId: v.hostId, volumeId: v.volumeId, startNano, slots, intervals, refBatches });
    }
  }
  if (templates.length === 0) throw new Error(`no metrics from ${traces.join(', ')}`);
  return templates;
}
