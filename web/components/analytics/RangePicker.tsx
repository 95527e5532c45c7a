import Link from "next/link";
import { PRESETS, type TimeRange } from "@/lib/time-range";

/** datetime-local value (UTC) of a date: "2026-11-20T10:00". */
const local = (d: Date) => d.toISOString().slice(0, 16);

/**
 * The time-range picker: preset links (the range lives in the URL, so links, back/forward and
 * reloads keep it) and a custom from/to form (UTC). `keep` holds the other query parameters.
 */
export function RangePicker({ path, range, keep = {} }: { path: string; range: TimeRange; keep?: Record<string, string> }) {
  return (
    <div className="range-picker">
      <nav aria-label="Time range" className="toggle">
        {Object.keys(PRESETS).map((key) => (
          <Link key={key} href={{ pathname: path, query: { ...keep, range: key } }} aria-current={range.key === key ? "true" : undefined} className="toggle__item">
            {key}
          </Link>
        ))}
      </nav>
      <form method="get" action={path} className="range-form" aria-label="Custom time range (UTC)">
        {Object.entries(keep).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <label>
          From <input type="datetime-local" name="from" defaultValue={local(range.from)} required />
        </label>
        <label>
          To <input type="datetime-local" name="to" defaultValue={local(range.to)} required />
        </label>
        <button type="submit">Show</button>
      </form>
    </div>
  );
}

/** Links to switch a query parameter between values, keeping the rest (breakdowns, directions). */
export function ParamToggle({ path, name, value, options, keep, label }: { path: string; name: string; value: string; options: Record<string, string>; keep: Record<string, string>; label: string }) {
  return (
    <nav aria-label={label} className="toggle">
      {Object.entries(options).map(([key, text]) => (
        <Link key={key} href={{ pathname: path, query: { ...keep, [name]: key } }} aria-current={value === key ? "true" : undefined} className="toggle__item">
          {text}
        </Link>
      ))}
    </nav>
  );
}
