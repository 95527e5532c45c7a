import { Direction, type ReferenceBatch, type ReferenceSummary } from '@tierwise/proto';
import { describe, expect, it } from 'vitest';
import { simulationBatch, validate } from '../../../test/support/miniature-fixtures.js';

/**
 * An agent batch of a volume without a cluster: {@link simulationBatch}'s 3 references (a 1-block
 * write at 0 µs, 2- and 3-block reads at 250 and 500 µs) summarised in their place, with its
 * working set ('all' alone).
 */
function summarised(change: (s: ReferenceSummary) => ReferenceSummary = (s) => s): ReferenceBatch {
  const b = simulationBatch();
  const last = b.baseTimeUnixNano + 500_000n;
  const summary: ReferenceSummary = {
    references: 3n,
    firstReferenceUnixNano: b.baseTimeUnixNano,
    lastReferenceUnixNano: last,
    ioLengths: [
      { direction: Direction.READ, lengthBlocks: 2, references: 1n },
      { direction: Direction.READ, lengthBlocks: 3, references: 1n },
      { direction: Direction.WRITE, lengthBlocks: 1, references: 1n },
    ],
  };
  const all = {
    windowSeconds: 0, paneStartUnixNano: 0n, paneFirstUnixNano: b.baseTimeUnixNano, references: 3n, readReferences: 2n,
    weight: 768, readWeight: 512, firstWeight: 768, hitBuckets: [], hitWeights: [], readHitBuckets: [], readHitWeights: [],
    blockRepeats: 0n, readRepeats: 0n, writeRepeats: 0n,
  };
  return {
    ...b,
    references: [],
    referenceSummary: change(summary),
    workingSet: { maxSamples: 8192, samplingThreshold: b.samplingThreshold, lastReferenceUnixNano: last, sampleId: 1n, shares: [all] },
  };
}

describe('validateReferenceBatch: references summarised in their place', () => {
  it("accepts a summary whose working set ends at its last reference", () => {
    expect(validate(summarised())).not.toThrow();
    const b = summarised();
    expect(validate({ ...b, workingSet: { ...b.workingSet!, lastReferenceUnixNano: b.baseTimeUnixNano } })).toThrow(
      /working_set.last_reference_unix_nano \d+ is not the time of the batch's last reference/,
    );
  });

  it('refuses a summary beside references, or without what the agent must have run over them', () => {
    const b = summarised();
    expect(validate({ ...b, references: simulationBatch().references })).toThrow('a batch carries references or reference_summary, not both');
    expect(validate({ ...b, workingSet: undefined })).toThrow('reference_summary needs working_set and miniature_policies');
    expect(validate({ ...b, miniaturePolicies: [], miniatureSimulations: [] })).toThrow('reference_summary needs working_set and miniature_policies');
    expect(validate({ ...b, consideredReferences: 2n })).toThrow('considered_references 2 is below the 3 references of the batch');
  });

  it('refuses counts, times and I/O lengths that contradict each other', () => {
    expect(validate(summarised((s) => ({ ...s, references: 4n })))).toThrow('reference_summary.io_lengths add up to 3 references, not 4');
    expect(validate(summarised((s) => ({ ...s, firstReferenceUnixNano: s.lastReferenceUnixNano + 1n })))).toThrow(/first_reference_unix_nano \d+ <= last_reference_unix_nano \d+ does not hold/);
    expect(validate(summarised((s) => ({ ...s, firstReferenceUnixNano: s.firstReferenceUnixNano - 1n })))).toThrow(/base_time_unix_nano \d+ <= first_reference_unix_nano/);
    expect(validate(summarised((s) => ({ ...s, ioLengths: [s.ioLengths[1], s.ioLengths[0], s.ioLengths[2]] })))).toThrow(
      'reference_summary.io_lengths[1] does not come after the previous one',
    );
    expect(validate(summarised((s) => ({ ...s, ioLengths: [...s.ioLengths.slice(0, 2), { ...s.ioLengths[2], lengthBlocks: 0 }] })))).toThrow(
      'reference_summary.io_lengths[2].length_blocks must be >= 1',
    );
    expect(validate(summarised((s) => ({ ...s, ioLengths: [{ ...s.ioLengths[0], direction: Direction.UNSPECIFIED }, ...s.ioLengths.slice(1)] })))).toThrow(
      'reference_summary.io_lengths[0].direction must be READ or WRITE, got 0',
    );
  });
});
