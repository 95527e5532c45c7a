import type { Metadata } from "next";
import "@/app/analytics.css";
import Link from "next/link";
import { DataTable } from "@/components/AdminBlocks";
import { NameOrId } from "@/components/NameOrId";
import { NavSearch, SEARCH_MAX_LENGTH } from "@/components/NavSearch";
import { search } from "@/lib/api";
import type { SearchResult } from "@/lib/api-schemas";
import { definePage } from "@/lib/page";
import { one } from "@/lib/search-params";

export const metadata: Metadata = { title: "Search" };

const KIND_LABELS: Record<SearchResult["kind"], string> = { volume: "Volume", host: "Host" };

/** Where a result's page is: the volume's, or the host's. */
const hrefOf = (r: SearchResult) => `/${r.kind === "volume" ? "volumes" : "hosts"}/${encodeURIComponent(r.id)}`;

/**
 * /search?q=…: the volumes and hosts whose name contains q (any case) or whose id starts with it,
 * best first (the API's order: exact name, name prefix, id prefix, the rest), each linking to its
 * page. The navigation's search box submits here.
 */
export default definePage({ permission: "volumes.read" }, async ({ searchParams }) => {
  const q = (one((await searchParams).q) ?? "").trim().slice(0, SEARCH_MAX_LENGTH);
  const results = q ? (await search(q)).data : null;
  return (
    <>
      <h1>Search</h1>
      <NavSearch q={q} testId="page-search" compact={false} />
      {results === null ? (
        <p className="muted" data-testid="search-hint">
          Type part of a volume&apos;s or host&apos;s name, or the first characters of its id.
        </p>
      ) : (
        <DataTable
          testId="search-results"
          caption={`Volumes and hosts matching ${q}`}
          columns={["Name", "Kind", "Id", "Host"]}
          empty={
            <>
              Nothing matches <q>{q}</q>: names are shown only for hosts whose agent sends them (<code>--send-names</code>); ids match from their first character.
            </>
          }
          rows={results.map((r) => (
            <tr key={`${r.kind}:${r.id}`} data-testid="search-result" data-kind={r.kind} data-id={r.id}>
              <th scope="row">
                <Link href={hrefOf(r)}>{r.display_name ?? <span className="muted">unnamed</span>}</Link>
              </th>
              <td>{KIND_LABELS[r.kind]}</td>
              <td>
                <Link href={hrefOf(r)}>
                  <code>{r.id}</code>
                </Link>
              </td>
              <td>{r.host_id ? <NameOrId name={r.host_display_name} id={r.host_id} kind="host" /> : "—"}</td>
            </tr>
          ))}
        />
      )}
    </>
  );
});
