"use client";

interface DataTableProps {
  caption: string;
  columns: string[];
  rows: string[][];
  /** A row's button selects that point (the keyboard path to a chart's point detail). */
  onSelect?: (index: number) => void;
}

/**
 * The numbers of a chart as a table inside a closed <details> (screen readers, keyboard,
 * copy-paste): the chart's accessible fallback.
 */
export function DataTable({ caption, columns, rows, onSelect }: DataTableProps) {
  return (
    <details className="data-table">
      <summary>Data table ({rows.length} {rows.length === 1 ? "row" : "rows"})</summary>
      <div className="table-scroll">
        <table className="table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col">
                  {c}
                </th>
              ))}
              {onSelect && <th scope="col">Detail</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i}>
                {r.map((cell, j) => (
                  <td key={j}>{cell}</td>
                ))}
                {onSelect && (
                  <td>
                    <button type="button" className="link-button" onClick={() => onSelect(i)}>
                      Show
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
