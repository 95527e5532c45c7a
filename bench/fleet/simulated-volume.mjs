/**
 * One simulated volume: a template stream (templates.mjs) from a random slot on, under its own
 * host and volume ids, with its interval times moved to the present.
 *
 * new SimulatedVolume({template, hostId, volumeId, offset, salt})
 *   hostId, volumeId: hex ids of the template's lengths (ids are patched in place)
 *   offset:           the template slot the volume starts at (it loops at the stream's end)
 *   salt:             40-bit number XORed into bits 24..63 of every sampled block hash, so that
 *                     copies of one template are different blocks in a host's shared tier; the
 *                     low 24 bits, which decide sampling (H mod P < T, P divides 2^24), stay
 * interval(k, endNano) -> Buffer | null: tick k's metrics (an ExportMetricsServiceRequest of this
 *   volume), every data point moved so that the interval ends at endNano (Unix ns); null: idle
 * referenceBatches(k, endNano) -> {body, references}[]: the ReferenceBatch bodies the agent sends at
 *   tick k's close, each with a fresh batch id and the volume's next sequence number (0, 1, 2, ...
 *   from its first batch), and the number of sampled references each carries or summarises. The
 *   template's batches (`tierwise-agent replay` sends a volume's partial batch when the trace ends) are held and
 *   sent as the serving agent sends them (serve_telemetry.hpp, proto/METRICS.md): a batch goes
 *   out when it is full ({@link MAX_REFERENCES_PER_BATCH}), before the sampling threshold
 *   changes, or at the first interval close at least {@link MAX_REFERENCE_AGE_NANO} after its
 *   first reference (the volume's first such batch sooner, by its phase: the agent's
 *   VolumeExporter::Volume::age_phase, from the volume id); held template batches go out as one
 *   (mergeReferenceBatches); the agent's working-set shares carry the volume's sample id and its
 *   host's (from their ids)
 */
import { randomUUID } from 'node:crypto';
import { mergeReferenceBatches, patchReferenceBatch } from './reference-template.mjs';
import { INTERVAL_NANO } from './templates.mjs';

const HASH_BITS = (1n << 64n) - 1n;
/** ReferenceBatcher::kMaxReferencesPerBatch (edge-agent/src/sampling/reference_batcher.hpp). */
export const MAX_REFERENCES_PER_BATCH = 10_000;
/** ServeTelemetry::kMaxReferenceAgeUs (edge-agent/src/serve/serve_telemetry.hpp), ns. */
export const MAX_REFERENCE_AGE_NANO = 60_000_000_000n;

export class SimulatedVolume {
  constructor({ template, hostId, volumeId, offset, salt }) {
    Object.assign(this, { template, hostId, volumeId, offset });
    this.saltBits = (BigInt(salt) << 24n) & HASH_BITS;
    // The agent's working-set samples: one per volume, one per host (its tier's), each its own id.
    this.sampleId = BigInt(`0x${volumeId.slice(0, 16)}`);
    this.hostSampleId = BigInt(`0x${hostId.slice(0, 16)}`);
    this.sequence = 0;
    /** Template batches held as the agent's open batch: [{template, shiftNano}], one threshold. */
    this.held = [];
    this.heldReferences = 0;
    /** The age of the first partial batch sent for its age, ns: (1 - the volume id's phase) of the age. */
    this.firstAgeNano = MAX_REFERENCE_AGE_NANO - (MAX_REFERENCE_AGE_NANO * BigInt(parseInt(volumeId.slice(0, 8), 16))) / 2n ** 32n;
    this.agedOnce = false;
  }

  slot(k) {
    return (this.offset + k) % this.template.slots;
  }

  /** Nanoseconds to add to the template's times of tick k's slot so that it ends at endNano. */
  shift(k, endNano) {
    return endNano - (this.template.startNano + BigInt(this.slot(k) + 1) * INTERVAL_NANO);
  }

  interval(k, endNano) {
    const template = this.template.intervals[this.slot(k)];
    if (!template) return null;
    const body = Buffer.from(template.body);
    const delta = endNano - template.endNano;
    for (const at of template.timeOffsets) body.writeBigUInt64LE(body.readBigUInt64LE(at) + delta, at);
    for (const at of template.hostIdOffsets) body.write(this.hostId, at, 'latin1');
    for (const at of template.volumeIdOffsets) body.write(this.volumeId, at, 'latin1');
    return body;
  }

  referenceBatches(k, endNano) {
    const shiftNano = this.shift(k, endNano);
    const out = [];
    for (const template of this.template.refBatches[this.slot(k)]) {
      const changes = this.held.length > 0 && template.threshold !== this.held[0].template.threshold;
      if (changes || this.heldReferences + template.references > MAX_REFERENCES_PER_BATCH) this.release(out);
      this.held.push({ template, shiftNano });
      this.heldReferences += template.references;
      if (this.heldReferences >= MAX_REFERENCES_PER_BATCH) this.release(out);
    }
    const first = this.held[0];
    const age = this.agedOnce ? MAX_REFERENCE_AGE_NANO : this.firstAgeNano;
    if (first && first.template.firstNano + first.shiftNano <= endNano - age) {
      this.release(out);
      this.agedOnce = true;
    }
    return out;
  }

  /** Sends the held batches as one (the agent's open batch). */
  release(out) {
    if (this.held.length === 0) return;
    const ids = { batchId: randomUUID(), hostId: this.hostId, volumeId: this.volumeId, saltBits: this.saltBits,
      sequence: this.sequence++, sampleId: this.sampleId, hostSampleId: this.hostSampleId };
    const body = this.held.length === 1
      ? patchReferenceBatch(this.held[0].template, { ...ids, shiftNano: this.held[0].shiftNano })
      : mergeReferenceBatches(this.held, ids);
    out.push({ references: this.heldReferences, body });
    this.held = [];
    this.heldReferences = 0;
  }
}
