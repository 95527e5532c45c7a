/** Longest search text the API takes (GET /v1/search, q: 1-100 characters). */
export const SEARCH_MAX_LENGTH = 100;

/**
 * A search box: a plain GET form to /search?q=… (works without JavaScript), finding volumes and
 * hosts by part of their name or the start of their id. In the navigation (`compact`), Enter
 * submits and the button is for screen readers only, so the header keeps to one line.
 */
export function NavSearch({ q = "", testId = "nav-search", compact = true }: { q?: string; testId?: string; compact?: boolean }) {
  return (
    <form action="/search" method="get" role="search" className={compact ? "nav-search nav-search--compact" : "nav-search"} data-testid={testId}>
      <input type="search" name="q" defaultValue={q} required maxLength={SEARCH_MAX_LENGTH} placeholder="Search name or id" aria-label="Search volumes and hosts" />
      <button type="submit" className="button button--quiet">
        Search
      </button>
    </form>
  );
}
