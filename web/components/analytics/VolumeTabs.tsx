import Link from "next/link";

const TABS = [
  ["", "Performance"],
  ["/workload", "Workload"],
  ["/matrix", "Performance matrix"],
  ["/working-set", "Working set"],
] as const;

/** The volume drill-down's views; the time range travels along in the query. */
export function VolumeTabs({ volumeId, current, query }: { volumeId: string; current: string; query: Record<string, string> }) {
  const base = `/volumes/${encodeURIComponent(volumeId)}`;
  return (
    <nav aria-label="Volume views" className="tabs">
      {TABS.map(([suffix, label]) => (
        <Link key={suffix} href={{ pathname: base + suffix, query }} aria-current={current === suffix ? "page" : undefined}>
          {label}
        </Link>
      ))}
      <Link href={`/recommendations/${encodeURIComponent(volumeId)}`}>Recommendation</Link>
    </nav>
  );
}
