import type { VolumeDetail } from "@/lib/api-schemas";
import { formatBytes, formatCount, formatDuration, formatExact, formatIops, formatPercent, formatTimestamp, share } from "@/lib/format";
import { StatTile } from "./StatTile";

/** Seconds between the first and the last 10-second interval of the volume's I/O totals. */
function spanSeconds(io: VolumeDetail["io"]): number | null {
  if (!io.first_interval || !io.last_interval) return null;
  return (Date.parse(io.last_interval) - Date.parse(io.first_interval)) / 1000;
}

/**
 * Stat tiles of one volume: working set (total, read, write), hit ratio at the tier (not for a
 * volume imported from vscsiStats: it has no tier), I/Os, mix.
 */
export function VolumeStats({ volume }: { volume: VolumeDetail }) {
  const { io, cache, working_set: ws } = volume;
  const tier = volume.source !== "vscsistats";
  const ops = io.read_ops + io.write_ops;
  const wsWindow = ws
    ? `${formatDuration((Date.parse(ws.window_end) - Date.parse(ws.window_start)) / 1000)} window, ${formatPercent(ws.sampling_rate)} of blocks sampled`
    : "not computed yet";
  return (
    <section className="tiles" aria-label="Volume figures">
      {tier && (
        <>
          <StatTile
            testId="stat-wss"
            label="Working set"
            value={formatBytes(ws?.wss_bytes)}
            detail={ws ? <span title={`${formatTimestamp(ws.window_start)} – ${formatTimestamp(ws.window_end)}`}>{wsWindow}</span> : wsWindow}
          />
          <StatTile testId="stat-wss-read" label="Read working set" value={formatBytes(ws?.wss_read_bytes)} detail="distinct 4 KiB blocks read" />
          <StatTile testId="stat-wss-write" label="Write working set" value={formatBytes(ws?.wss_write_bytes)} detail="distinct 4 KiB blocks written" />
          <StatTile
            testId="stat-hit-ratio"
            label="Hit ratio"
            value={formatPercent(cache.hit_ratio)}
            detail={`measured at the ${cache.capacity_bytes ? `${formatBytes(cache.capacity_bytes)} ` : ""}tier; reads ${formatPercent(cache.read_hit_ratio)}`}
          />
        </>
      )}
      <StatTile
        testId="stat-ios"
        label="I/Os"
        value={formatCount(ops)}
        detail={<span title={`${formatExact(ops)} I/Os from ${formatTimestamp(io.first_interval)} to ${formatTimestamp(io.last_interval)}`}>{formatIops(ops, spanSeconds(io))} average</span>}
      />
      <StatTile
        testId="stat-mix"
        label="Read share"
        value={formatPercent(share(io.read_ops, io.write_ops))}
        detail={`${formatBytes(io.read_bytes)} read, ${formatBytes(io.write_bytes)} written`}
      />
    </section>
  );
}
