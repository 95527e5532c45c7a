"use client";

import { StatTile } from "@/components/StatTile";
import { HistogramChart } from "@/components/charts/HistogramChart";
import { DIRECTION_COLOURS } from "@/components/charts/echarts";
import { alignmentAdvice } from "@/lib/alignment-advice";
import { DIRECTION_NOUNS, DIRECTIONS, type Direction } from "@/lib/direction";
import { formatExact, formatPercent } from "@/lib/format";
import { startSectorBuckets } from "@/lib/vscsi-buckets";
import type { Alignment } from "@/lib/workload-schemas";

/** The tiles over all commands: misaligned share of I/Os and of bytes, the tier's extra 4 KiB blocks. */
function AlignmentTiles({ alignment: a }: { alignment: Alignment }) {
  return (
    <div className="tiles">
      <StatTile
        testId="stat-misaligned"
        label="Misaligned I/Os"
        value={formatPercent(a.misaligned_share)}
        detail={<span title={`${formatExact(a.commands)} commands, reads and writes`}>of commands do not start on a 4 KiB boundary</span>}
      />
      <StatTile testId="stat-misaligned-bytes" label="Misaligned bytes" value={formatPercent(a.misaligned_bytes_share)} detail="of the bytes read and written are in misaligned I/Os" />
      <StatTile testId="stat-extra-blocks" label="Extra tier work" value={formatPercent(a.extra_block_share)} detail="more 4 KiB blocks than the same I/Os would span aligned" />
    </div>
  );
}

/**
 * A volume's block alignment over the period (docs/workload.md "Block alignment"): tiles over all
 * commands, one sentence of advice, and the start-sector histogram for the direction (bytes into
 * the 4 KiB block, bucket k = k × 512 bytes, 0 = aligned) with its data table. Without counts it
 * says so once (vscsiStats output has none).
 */
export function AlignmentPanel({ alignment, direction, subject, imported }: { alignment: Alignment | null; direction: Direction; subject: string; imported: boolean }) {
  const counts = alignment?.start_sector[direction];
  const which = DIRECTIONS[direction].toLowerCase();
  const noun = DIRECTION_NOUNS[direction];
  return (
    <section className="panel" aria-labelledby="alignment" data-testid="alignment">
      <h2 id="alignment">Alignment</h2>
      {alignment ? (
        <>
          <AlignmentTiles alignment={alignment} />
          <p data-testid="alignment-advice" data-advised={alignment.realignment_advised}>
            {alignmentAdvice(alignment)}
          </p>
          {counts ? (
            <HistogramChart
              buckets={startSectorBuckets(alignment.start_sector.bounds)}
              series={[{ name: DIRECTIONS[direction], counts, color: DIRECTION_COLOURS[direction] }]}
              axis="Where a command starts in its 4 KiB block (bytes; 0 = aligned)"
              label={`Start offset in the 4 KiB block of ${subject} (${which}), share of ${noun}s per 512-byte sector`}
              testId="histogram-alignment"
            />
          ) : (
            <p className="muted">No start offsets reported for {which} in this range.</p>
          )}
        </>
      ) : (
        <p className="muted" data-testid="alignment-empty">
          {imported ? "vscsiStats output has no alignment counts." : "No alignment counts reported in this range."}
        </p>
      )}
    </section>
  );
}
