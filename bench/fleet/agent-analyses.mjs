/**
 * What the agent computes over a reference batch's sampled references, in a fleet template: the
 * working sets' shares of the volume's windows and of its host's tier (ReferenceBatch fields 18
 * and 19, WorkingSetShares) and the references' summary in their place (field 20,
 * ReferenceSummary; proto/tierwise/v1/reference_batch.proto), moved to a simulated volume's ids
 * and times.
 *
 * Times move by a batch's shift, except pane starts: a pane starts at a multiple of its window's
 * hop (the window / 4) in Unix time, so a pane start moves by the shift floored to its window's
 * hop (still a multiple, still at or before the pane's shifted first reference); 'all''s start
 * (0) stays. So a simulated volume's shares keep their panes apart and in order, and pass ingest's
 * and the job's checks, while a shift that is not a multiple of every hop puts a reference near a
 * pane's edge in the neighbouring pane: the content stays the agent's but for that edge.
 *
 * analysisOffsets(reader, field, end, offsets): records, for field 18, 19 or 20 read by `reader`
 *   (a protobufjs Reader at the field's payload, ending at `end`), the byte offsets of its fixed64
 *   times and sample id into `offsets` ({times: [], paneStarts: [{at, hopNano}], sampleIds:
 *   {18: [], 19: []}}).
 * patchAnalyses(body, offsets, {shiftNano, sampleId, hostSampleId}): writes them in place into a
 *   copy of the template's body: times + shiftNano, pane starts + the shift floored to their hop,
 *   field 18's sample id = sampleId, field 19's = hostSampleId (bigints).
 * writeMergedAnalyses(w, parts, {sampleId, hostSampleId}): writes fields 18 to 20 of the batch the
 *   parts ([{template, shiftNano}], template.batch decoded) make together into protobufjs Writer
 *   `w`: each working set's shares summed per (window, moved pane start), its T the last part's,
 *   its last reference the latest; the summaries' counts summed per (direction, I/O length), from
 *   the earliest first to the latest last reference.
 */
import proto from '@tierwise/proto';

const { messageCodec } = proto;
const WorkingSetShares = messageCodec('tierwise.v1.WorkingSetShares');
const ReferenceSummary = messageCodec('tierwise.v1.ReferenceSummary');
export const FIELD = { workingSet: 18, hostTierWorkingSet: 19, referenceSummary: 20 };
const LENGTH_DELIMITED = 2;
const PANES = 4n;

/** A window's hop, ns: its length / 4 (WindowedEstimators.PANES); 0 for 'all'. */
function hopNano(windowSeconds) {
  return (BigInt(windowSeconds) * 1_000_000_000n) / PANES;
}

/** `shift` floored to a multiple of `hop` (bigints, hop > 0; BigInt division truncates toward zero). */
function floorToHop(shift, hop) {
  const q = shift / hop;
  return (q * hop > shift ? q - 1n : q) * hop;
}

export function analysisOffsets(reader, field, end, offsets) {
  while (reader.pos < end) {
    const tag = reader.uint32();
    const inner = tag >>> 3;
    if (field === FIELD.referenceSummary && (inner === 2 || inner === 3)) {
      offsets.times.push(reader.pos);
      reader.skip(8);
    } else if (field !== FIELD.referenceSummary && inner === 3) {
      offsets.times.push(reader.pos); // last_reference_unix_nano
      reader.skip(8);
    } else if (field !== FIELD.referenceSummary && inner === 5) {
      offsets.sampleIds[field].push(reader.pos);
      reader.skip(8);
    } else if (field !== FIELD.referenceSummary && inner === 4) {
      shareOffsets(reader, reader.uint32() + reader.pos, offsets);
    } else {
      reader.skipType(tag & 7);
    }
  }
}

/** A WindowShare's pane start and first reference offsets (window_seconds, field 1, comes first). */
function shareOffsets(reader, end, offsets) {
  let seconds = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    const inner = tag >>> 3;
    if (inner === 1) {
      seconds = reader.uint32();
    } else if (inner === 2) {
      offsets.paneStarts.push({ at: reader.pos, hopNano: hopNano(seconds) });
      reader.skip(8);
    } else if (inner === 3) {
      offsets.times.push(reader.pos);
      reader.skip(8);
    } else {
      reader.skipType(tag & 7);
    }
  }
}

export function patchAnalyses(body, offsets, { shiftNano, sampleId, hostSampleId }) {
  for (const at of offsets.times) body.writeBigUInt64LE(body.readBigUInt64LE(at) + shiftNano, at);
  for (const { at, hopNano: hop } of offsets.paneStarts) {
    if (hop > 0n) body.writeBigUInt64LE(body.readBigUInt64LE(at) + floorToHop(shiftNano, hop), at);
  }
  for (const at of offsets.sampleIds[FIELD.workingSet]) body.writeBigUInt64LE(sampleId, at);
  for (const at of offsets.sampleIds[FIELD.hostTierWorkingSet]) body.writeBigUInt64LE(hostSampleId, at);
}

/** Sums the parts' shares of one working set (`key`: workingSet or hostTierWorkingSet), moved by their shifts; null when none has it. */
function mergedShares(parts, key, sampleId) {
  const present = parts.filter((p) => p.template.batch[key]);
  if (present.length === 0) return null;
  const panes = new Map();
  let last = 0n;
  for (const { template, shiftNano } of present) {
    const ws = template.batch[key];
    const wsLast = BigInt(ws.lastReferenceUnixNano);
    if (wsLast > 0n && wsLast + shiftNano > last) last = wsLast + shiftNano;
    for (const s of ws.shares) {
      const hop = hopNano(s.windowSeconds);
      const start = hop > 0n ? BigInt(s.paneStartUnixNano) + floorToHop(shiftNano, hop) : 0n;
      const first = BigInt(s.paneFirstUnixNano) + shiftNano;
      const k = `${s.windowSeconds}/${start}`;
      const sum = panes.get(k) ?? { windowSeconds: s.windowSeconds, paneStartUnixNano: start, paneFirstUnixNano: first,
        references: 0n, readReferences: 0n, weight: 0, readWeight: 0, firstWeight: 0, hits: new Map(), readHits: new Map(),
        blockRepeats: 0n, readRepeats: 0n, writeRepeats: 0n };
      if (first < sum.paneFirstUnixNano) sum.paneFirstUnixNano = first;
      for (const f of ['references', 'readReferences', 'blockRepeats', 'readRepeats', 'writeRepeats']) sum[f] += BigInt(s[f] ?? 0);
      for (const f of ['weight', 'readWeight', 'firstWeight']) sum[f] += s[f] ?? 0;
      s.hitBuckets.forEach((b, i) => sum.hits.set(b, (sum.hits.get(b) ?? 0) + s.hitWeights[i]));
      s.readHitBuckets.forEach((b, i) => sum.readHits.set(b, (sum.readHits.get(b) ?? 0) + s.readHitWeights[i]));
      panes.set(k, sum);
    }
  }
  const byBucket = (m) => [...m.keys()].sort((a, b) => a - b);
  const shares = [...panes.values()]
    .sort((a, b) => a.windowSeconds - b.windowSeconds || (a.paneStartUnixNano < b.paneStartUnixNano ? -1 : a.paneStartUnixNano > b.paneStartUnixNano ? 1 : 0))
    .map(({ hits, readHits, ...s }) => ({ ...s, hitBuckets: byBucket(hits), hitWeights: byBucket(hits).map((b) => hits.get(b)),
      readHitBuckets: byBucket(readHits), readHitWeights: byBucket(readHits).map((b) => readHits.get(b)) }));
  const tail = present.at(-1).template.batch[key];
  return { maxSamples: tail.maxSamples, samplingThreshold: BigInt(tail.samplingThreshold), lastReferenceUnixNano: last, shares, sampleId };
}

/** The parts' summaries as one, moved by their shifts; null when none has one. */
function mergedSummary(parts) {
  const present = parts.filter((p) => p.template.batch.referenceSummary);
  if (present.length === 0) return null;
  const counts = new Map();
  let references = 0n;
  let first;
  let last = 0n;
  for (const { template, shiftNano } of present) {
    const s = template.batch.referenceSummary;
    references += BigInt(s.references);
    const f = BigInt(s.firstReferenceUnixNano) + shiftNano;
    const l = BigInt(s.lastReferenceUnixNano) + shiftNano;
    if (first === undefined || f < first) first = f;
    if (l > last) last = l;
    for (const c of s.ioLengths) {
      const k = c.direction * 2 ** 32 + c.lengthBlocks;
      counts.set(k, { direction: c.direction, lengthBlocks: c.lengthBlocks, references: (counts.get(k)?.references ?? 0n) + BigInt(c.references) });
    }
  }
  const ioLengths = [...counts.keys()].sort((a, b) => a - b).map((k) => counts.get(k));
  return { references, firstReferenceUnixNano: first, lastReferenceUnixNano: last, ioLengths };
}

export function writeMergedAnalyses(w, parts, { sampleId, hostSampleId }) {
  const own = mergedShares(parts, 'workingSet', sampleId);
  const host = mergedShares(parts, 'hostTierWorkingSet', hostSampleId);
  const summary = mergedSummary(parts);
  if (own) w.uint32((FIELD.workingSet << 3) | LENGTH_DELIMITED).bytes(WorkingSetShares.encode(own));
  if (host) w.uint32((FIELD.hostTierWorkingSet << 3) | LENGTH_DELIMITED).bytes(WorkingSetShares.encode(host));
  if (summary) w.uint32((FIELD.referenceSummary << 3) | LENGTH_DELIMITED).bytes(ReferenceSummary.encode(summary));
}
