import Link from "next/link";

/**
 * A row of links that filter a list by one query parameter (the current one marked
 * aria-current); `values` maps each value (or "" for no filter) to its label.
 */
export function FilterLinks({ path, name, current, values, label }: { path: string; name: string; current: string; values: Record<string, string>; label: string }) {
  return (
    <nav className="filters" aria-label={label}>
      <span className="muted">{label}:</span>
      {Object.entries(values).map(([value, text]) => (
        <Link key={value || "all"} href={value ? `${path}?${new URLSearchParams({ [name]: value })}` : path} aria-current={value === current ? "page" : undefined}>
          {text}
        </Link>
      ))}
    </nav>
  );
}
