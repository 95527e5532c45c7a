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
 * referenceBatches(k, endNano) -> {body, references}[]: tick k's ReferenceBatch bodies, each with
 *   a fresh batch id and the volume's next sequence number (0, 1, 2, ... from its first batch),
 *   and the number of references each carries
 */
import { randomUUID } from 'node:crypto';
import { patchReferenceBatch } from './reference-template.mjs';
import { INTERVAL_NANO } from './templates.mjs';

const HASH_BITS = (1n << 64n) - 1n;

export class SimulatedVolume {
  constructor({ template, hostId, volumeId, offset, salt }) {
    Object.assign(this, { template, hostId, volumeId, offset });
    this.saltBits = (BigInt(salt) << 24n) & HASH_BITS;
    this.sequence = 0;
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
    return this.template.refBatches[this.slot(k)].map((template) => ({
      references: template.references,
      body: patchReferenceBatch(template, {
        batchId: randomUUID(), hostId: this.hostId, volumeId: this.volumeId, shiftNano, saltBits: this.saltBits, sequence: this.sequence++,
      }),
    }));
  }
}
