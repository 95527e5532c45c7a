import { StatTile } from "@/components/StatTile";
import { formatCount, formatExact, formatPercent } from "@/lib/format";
import type { Workload } from "@/lib/workload-schemas";

/**
 * How random a volume's I/O is, from its seek distances over all commands (vscsiStats): the share
 * that is sequential (distance 1 sector) and the share within 128 sectors (64 KiB), each with
 * what it means in one line.
 */
export function RandomnessTiles({ randomness }: { randomness: NonNullable<Workload["randomness"]> }) {
  return (
    <section className="tiles" aria-label="How random the I/O is">
      <StatTile
        testId="stat-sequential"
        label="Sequential"
        value={formatPercent(randomness.sequential_share)}
        detail="of commands start at the sector after the previous one ended"
      />
      <StatTile
        testId="stat-within-128"
        label="Within 64 KiB"
        value={formatPercent(randomness.within_128_sectors_share)}
        detail="of commands start within 128 sectors of where the previous one ended; the rest are random"
      />
      <StatTile
        testId="stat-commands"
        label="Commands"
        value={formatCount(randomness.commands)}
        detail={<span title={`${formatExact(randomness.commands)} commands`}>with a previous command, reads and writes</span>}
      />
    </section>
  );
}
