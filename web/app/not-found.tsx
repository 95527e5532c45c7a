import Link from "next/link";

/** 404 page: unknown address or a volume the tenant does not have. */
export default function NotFound() {
  return (
    <section className="error-view" data-testid="not-found">
      <h1>Not found</h1>
      <p>There is no such page, or no volume with that id in this tenant.</p>
      <p>
        <Link href="/volumes">Back to volumes</Link>
      </p>
    </section>
  );
}
