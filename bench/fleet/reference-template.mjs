/**
 * A reference batch made ready to be sent again and again cheaply: encoded once, with the byte
 * offsets of what changes per send, so that a copy is patched in place instead of re-encoded
 * (a fleet sends hundreds of thousands of references per second).
 *
 * referenceTemplate(batch) -> {body, batch, references, threshold, firstNano, offsets, columns}: batch
 *   (a decoded ReferenceBatch) encoded with a batch id slot of 36 characters (a UUID's length,
 *   overwritten by every send) and no sequence; references: its sampled references (carried or
 *   summarised); threshold: its sampling_threshold (bigint); firstNano: the time of its first
 *   sampled reference (its base time when it has none), Unix ns (bigint); columns: its references
 *   as typed arrays of numbers, for merging (referenceColumns)
 * patchReferenceBatch(template, {batchId, hostId, volumeId, shiftNano, saltBits, sequence, sampleId,
 *   hostSampleId}) -> Buffer
 *   batchId: a UUID (36 characters); hostId, volumeId: the template's lengths; shiftNano: added to
 *   base_time_unix_nano and the agent's analyses' times (agent-analyses.mjs; bigint); saltBits:
 *   XORed into every block_hash (bigint); sequence: the batch's sequence number, appended as field
 *   8 (the last occurrence of a scalar field wins, protobuf encoding spec, "Last One Wins");
 *   sampleId, hostSampleId: the simulated volume's and host's working-set sample ids (bigint)
 * mergeReferenceBatches(parts, {batchId, hostId, volumeId, saltBits, sequence, sampleId,
 *   hostSampleId}) -> Buffer: the
 *   batches of parts ([{template, shiftNano}], in time order, one sampling threshold) as the agent
 *   sends them when it holds a partial batch across intervals (proto/METRICS.md: a batch goes out
 *   full or a minute old): one ReferenceBatch from the first part's base time, every part's
 *   references re-based to it, considered references and LRU anchor hits summed, the sketch
 *   updates merged (each register's highest value, ascending by index), the last part's
 *   threshold and anchor size, the miniature simulations' counts summed per cache size (the host
 *   tier's per cache size and T_C), the agent's analyses summed (agent-analyses.mjs), time order
 *   kept (a part shifted less by a late tick waits for the part before); ids, salt, sequence and
 *   sample ids as patchReferenceBatch
 */
import protobuf from 'protobufjs';
import proto from '@tierwise/proto';
import { analysisOffsets, FIELD as ANALYSIS, patchAnalyses, writeMergedAnalyses } from './agent-analyses.mjs';

const { ReferenceBatch } = proto;
const BATCH_ID_SLOT = ' '.repeat(36);
const FIELD = { batchId: 1, hostId: 2, volumeId: 3, baseTime: 6, references: 7, sequence: 8 };
const LENGTH_DELIMITED = 2;

export function referenceTemplate(batch) {
  const body = Buffer.from(ReferenceBatch.encode({ ...batch, batchId: BATCH_ID_SLOT, sequence: 0n }));
  const offsets = { hashes: [], times: [], paneStarts: [], sampleIds: { [ANALYSIS.workingSet]: [], [ANALYSIS.hostTierWorkingSet]: [] } };
  const reader = protobuf.Reader.create(body);
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    const field = tag >>> 3;
    if (field === FIELD.baseTime) {
      offsets.baseTime = reader.pos;
      reader.skip(8);
    } else if (field === FIELD.references) {
      const end = reader.uint32() + reader.pos;
      while (reader.pos < end) {
        const inner = reader.uint32();
        if (inner >>> 3 === 1) offsets.hashes.push(reader.pos);
        reader.skipType(inner & 7);
      }
    } else if (Object.values(ANALYSIS).includes(field)) {
      analysisOffsets(reader, field, reader.uint32() + reader.pos, offsets);
    } else if ((tag & 7) === LENGTH_DELIMITED && [FIELD.batchId, FIELD.hostId, FIELD.volumeId].includes(field)) {
      const length = reader.uint32();
      offsets[Object.keys(FIELD).find((k) => FIELD[k] === field)] = reader.pos;
      reader.skip(length);
    } else {
      reader.skipType(tag & 7);
    }
  }
  const first = batch.references[0];
  const baseNano = BigInt(batch.baseTimeUnixNano);
  const summary = batch.referenceSummary;
  return {
    body, batch, threshold: BigInt(batch.samplingThreshold), offsets,
    references: summary ? Number(summary.references) : batch.references.length,
    firstNano: summary ? BigInt(summary.firstReferenceUnixNano) : first ? baseNano + BigInt(first.timeOffsetUs) * 1000n : baseNano,
    columns: referenceColumns(batch.references),
  };
}

/**
 * A batch's references as numbers, for merging without a bigint per reference: the block hash's
 * low and high 32-bit words, the time offset in µs (a batch spans minutes: far below 2^53).
 */
function referenceColumns(references) {
  const n = references.length;
  const columns = { hashLow: new Uint32Array(n), hashHigh: new Uint32Array(n), direction: new Int32Array(n),
    lengthBlocks: new Uint32Array(n), offsetUs: new Float64Array(n) };
  references.forEach((r, i) => {
    const hash = BigInt(r.blockHash);
    columns.hashLow[i] = Number(hash & 0xffffffffn);
    columns.hashHigh[i] = Number(hash >> 32n);
    columns.direction[i] = r.direction ?? 0;
    columns.lengthBlocks[i] = r.lengthBlocks ?? 0;
    columns.offsetUs[i] = Number(r.timeOffsetUs);
  });
  return columns;
}

/** saltBits (a 64-bit bigint) as the two 32-bit words XORed into a hash's. */
function saltWords(saltBits) {
  return { low: Number(saltBits & 0xffffffffn), high: Number((saltBits >> 32n) & 0xffffffffn) };
}

export function patchReferenceBatch(template, { batchId, hostId, volumeId, shiftNano, saltBits, sequence, sampleId, hostSampleId }) {
  const { offsets } = template;
  const sequenceField = protobuf.Writer.create().uint32((FIELD.sequence << 3) | 0).uint64(sequence).finish();
  const body = Buffer.concat([template.body, sequenceField]);
  body.write(batchId, offsets.batchId, 'latin1');
  body.write(hostId, offsets.hostId, 'latin1');
  body.write(volumeId, offsets.volumeId, 'latin1');
  body.writeBigUInt64LE(body.readBigUInt64LE(offsets.baseTime) + shiftNano, offsets.baseTime);
  const salt = saltWords(saltBits);
  for (const at of offsets.hashes) {
    body.writeUInt32LE((body.readUInt32LE(at) ^ salt.low) >>> 0, at);
    body.writeUInt32LE((body.readUInt32LE(at + 4) ^ salt.high) >>> 0, at + 4);
  }
  patchAnalyses(body, offsets, { shiftNano, sampleId, hostSampleId });
  return body;
}

/** A 64-bit value for protobufjs' Writer, which takes {low, high} without the long package. */
function long(value) {
  const v = BigInt.asUintN(64, BigInt(value));
  return { low: Number(v & 0xffffffffn) | 0, high: Number(v >> 32n) | 0 };
}

export function mergeReferenceBatches(parts, { batchId, hostId, volumeId, saltBits, sequence, sampleId, hostSampleId }) {
  const head = parts[0].template.batch;
  const last = parts.at(-1).template.batch;
  const baseNano = BigInt(head.baseTimeUnixNano) + parts[0].shiftNano;
  let considered = 0n;
  let anchorHits = 0n;
  const registers = new Map();
  let previousUs = 0;
  const salt = saltWords(saltBits);
  const w = protobuf.Writer.create();
  w.uint32((FIELD.batchId << 3) | LENGTH_DELIMITED).string(batchId);
  w.uint32((FIELD.hostId << 3) | LENGTH_DELIMITED).string(hostId);
  w.uint32((FIELD.volumeId << 3) | LENGTH_DELIMITED).string(volumeId);
  w.uint32(4 << 3).uint64(long(last.samplingModulus));
  w.uint32(5 << 3).uint64(long(last.samplingThreshold));
  w.uint32((FIELD.baseTime << 3) | 1).fixed64(long(baseNano));
  for (const { template, shiftNano } of parts) {
    const { batch } = template;
    const deltaUs = Number((BigInt(batch.baseTimeUnixNano) + shiftNano - baseNano) / 1000n);
    const { hashLow, hashHigh, direction, lengthBlocks, offsetUs } = template.columns;
    for (let i = 0; i < hashLow.length; i++) {
      w.uint32((FIELD.references << 3) | LENGTH_DELIMITED).fork();
      w.uint32((1 << 3) | 1).fixed64({ low: hashLow[i] ^ salt.low, high: hashHigh[i] ^ salt.high });
      if (direction[i]) w.uint32(2 << 3).int32(direction[i]);
      if (lengthBlocks[i]) w.uint32(3 << 3).uint32(lengthBlocks[i]);
      // A later tick's lateness moves its part less: keep the merged references in time order.
      const offset = Math.max(previousUs, offsetUs[i] + deltaUs);
      previousUs = offset;
      if (offset) w.uint32(4 << 3).uint64(offset);
      w.ldelim();
    }
    considered += BigInt(batch.consideredReferences);
    anchorHits += BigInt(batch.lruAnchorHits);
    for (const u of batch.distinctBlocksHllUpdates) {
      const index = u >>> 8;
      registers.set(index, Math.max(registers.get(index) ?? 0, u & 0xff));
    }
  }
  w.uint32(FIELD.sequence << 3).uint64(sequence);
  if (considered) w.uint32(9 << 3).uint64(long(considered));
  if (last.distinctBlocksHllPrecision) w.uint32(10 << 3).uint32(last.distinctBlocksHllPrecision);
  if (registers.size) {
    w.uint32((11 << 3) | LENGTH_DELIMITED).fork();
    for (const index of [...registers.keys()].sort((a, b) => a - b)) w.uint32((index << 8) | registers.get(index));
    w.ldelim();
  }
  if (last.clusterId) w.uint32((12 << 3) | LENGTH_DELIMITED).string(last.clusterId);
  if (anchorHits) w.uint32(13 << 3).uint64(long(anchorHits));
  if (last.lruAnchorBlocks) w.uint32(14 << 3).uint32(last.lruAnchorBlocks);
  writeMiniatureSimulations(w, parts.map((p) => p.template.batch));
  writeMergedAnalyses(w, parts, { sampleId, hostSampleId });
  return Buffer.from(w.finish());
}

/**
 * The parts' miniature simulations as one batch's (fields 15 to 17): the last part's policies;
 * miniature_simulations' counts added up per cache size at the last part's T_C (the parts share
 * one sampling threshold, so each size's T_C is the same in all of them); host_tier_simulations'
 * per cache size and T_C (the host's tier lowers its T_C when another volume's threshold falls, so
 * a size may come once per T_C).
 */
function writeMiniatureSimulations(w, batches) {
  const policies = batches.at(-1).miniaturePolicies;
  if (!policies.length) return;
  w.uint32((15 << 3) | LENGTH_DELIMITED).fork();
  for (const p of policies) w.int32(p);
  w.ldelim();
  writeSimulationSums(w, 16, policies, batches.flatMap((b) => b.miniatureSimulations), false);
  writeSimulationSums(w, 17, policies, batches.flatMap((b) => b.hostTierSimulations), true);
}

/**
 * Writes `simulations` (decoded MiniatureSimulations) as repeated field `field`, their counts
 * summed per cache size (at the last one's T_C) or, with `perThreshold`, per cache size and T_C;
 * ascending by cache_bytes, a size's T_Cs falling (reference_batch.proto, fields 16 and 17).
 */
function writeSimulationSums(w, field, policies, simulations, perThreshold) {
  const sums = new Map();
  for (const s of simulations) {
    const bytes = BigInt(s.cacheBytes);
    const threshold = BigInt(s.samplingThreshold);
    const key = perThreshold ? `${bytes}/${threshold}` : `${bytes}`;
    const sum = sums.get(key) ?? { bytes, threshold, references: 0n, readReferences: 0n,
      misses: policies.map(() => 0n), readMisses: policies.map(() => 0n) };
    sum.threshold = threshold;
    sum.references += BigInt(s.references);
    sum.readReferences += BigInt(s.readReferences);
    s.misses.forEach((m, i) => { sum.misses[i] += BigInt(m); });
    s.readMisses.forEach((m, i) => { sum.readMisses[i] += BigInt(m); });
    sums.set(key, sum);
  }
  const compare = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
  for (const s of [...sums.values()].sort((a, b) => compare(a.bytes, b.bytes) || compare(b.threshold, a.threshold))) {
    w.uint32((field << 3) | LENGTH_DELIMITED).fork();
    w.uint32(1 << 3).uint64(long(s.bytes));
    w.uint32(2 << 3).uint64(long(s.threshold));
    w.uint32(3 << 3).uint64(long(s.references));
    if (s.readReferences) w.uint32(4 << 3).uint64(long(s.readReferences));
    for (const [member, counts] of [[5, s.misses], [6, s.readMisses]]) {
      w.uint32((member << 3) | LENGTH_DELIMITED).fork();
      for (const c of counts) w.uint64(long(c));
      w.ldelim();
    }
    w.ldelim();
  }
}
