import type { ReactNode } from "react";
import type { FormState } from "@/lib/form-state";
import { ActionForm } from "./ActionForm";

type Action = (previous: FormState | null, form: FormData) => Promise<FormState>;

/**
 * A table of a list in its scrolling frame (narrow screens scroll the table, never the page), or
 * the `empty` sentence (test id `<testId>-empty`) when there are no rows.
 * @param columns  header cells; a column whose name starts with "#" is numeric (right-aligned, "#" dropped).
 * @param caption  what the table holds, for screen readers (not shown).
 */
export function DataTable({ testId, columns, empty, rows, caption }: { testId: string; columns: string[]; empty: ReactNode; rows: ReactNode[]; caption?: string }) {
  if (rows.length === 0) return <p className="muted" data-testid={`${testId}-empty`}>{empty}</p>;
  return (
    <div className="table-scroll">
      <table className="table" data-testid={testId}>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col" className={c.startsWith("#") ? "num" : undefined}>
                {c.replace(/^#/, "")}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </table>
    </div>
  );
}

/** A one-button form acting on one row (the row's id in a hidden field), e.g. Revoke. */
export function RowAction({ action, id, label, danger = false, children }: { action: Action; id: string; label: string; danger?: boolean; children?: ReactNode }) {
  return (
    <ActionForm action={action} submitLabel={label} className="form--row" danger={danger}>
      <input type="hidden" name="id" value={id} />
      {children}
    </ActionForm>
  );
}

/** A titled panel holding one creation form (fields in a row that wraps on narrow screens). */
export function FormPanel({ title, action, submitLabel, testId, children, intro }: { title: string; action: Action; submitLabel: string; testId: string; children: ReactNode; intro?: ReactNode }) {
  const headingId = `${testId}-heading`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {intro}
      <ActionForm action={action} submitLabel={submitLabel} className="form form--inline" testId={testId}>
        {children}
      </ActionForm>
    </section>
  );
}
