"use client";

import { useId, useMemo, useState } from "react";
import { StatTile } from "@/components/StatTile";
import type { WhatIfRow } from "@/lib/analytics-schemas";
import { formatBytes, formatCount, formatLatency, formatPercent } from "@/lib/format";

/**
 * The what-if control of a recommendation: pick a tier size (the miss ratio curve's sizes) and an
 * eviction policy, read what the stream jobs predict that tier would do (hit ratio, I/Os kept from
 * the datastore, mean latency, bytes written to the tier per day). Starts at the recommendation.
 */
export function WhatIf({ rows, tierBytes, eviction }: { rows: WhatIfRow[]; tierBytes: number; eviction: string | null }) {
  const sizes = useMemo(() => [...new Set(rows.map((r) => r.cache_bytes))].sort((a, b) => a - b), [rows]);
  const evictions = useMemo(() => [...new Set(rows.map((r) => r.eviction))], [rows]);
  const start = sizes.find((s) => s >= tierBytes) ?? sizes[sizes.length - 1];
  const [size, setSize] = useState(start);
  const [policy, setPolicy] = useState(eviction && evictions.includes(eviction as WhatIfRow["eviction"]) ? eviction : evictions[0]);
  const id = useId();
  const row = rows.find((r) => r.cache_bytes === size && r.eviction === policy);
  if (rows.length === 0) return null;
  return (
    <section className="panel" aria-labelledby={`${id}-title`} data-testid="what-if">
      <h2 id={`${id}-title`}>What if</h2>
      <p className="form-row">
        <label>
          Tier size{" "}
          <select data-testid="what-if-size" value={size} onChange={(e) => setSize(Number(e.target.value))}>
            {sizes.map((s) => (
              <option key={s} value={s}>
                {formatBytes(s)}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          Eviction{" "}
          <select data-testid="what-if-eviction" value={policy} onChange={(e) => setPolicy(e.target.value)}>
            {evictions.map((e) => (
              <option key={e} value={e}>
                {e.toUpperCase()}
              </option>
            ))}
          </select>
        </label>
      </p>
      {row && (
        <div className="tiles" aria-live="polite">
          <StatTile testId="what-if-hit-ratio" label="Hit ratio" value={formatPercent(row.hit_ratio)} detail={`${row.media.toUpperCase()} tier`} />
          <StatTile testId="what-if-offload" label="Offloaded from the datastore" value={`${formatCount(row.offloaded_iops)} IOPS`} />
          <StatTile testId="what-if-latency" label="Mean latency (VM observed)" value={formatLatency(row.latency_us)} detail="modelled" />
          <StatTile testId="what-if-tier-writes" label="Tier writes per day" value={formatBytes(row.tier_write_bytes_per_day)} detail={`${(row.tier_write_bytes_per_day / row.cache_bytes).toFixed(1)} drive writes per day`} />
        </div>
      )}
    </section>
  );
}
