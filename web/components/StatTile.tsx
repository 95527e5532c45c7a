import type { ReactNode } from "react";

/** One figure with its label and an optional line of detail below it. */
export function StatTile({ label, value, detail, testId }: { label: string; value: string; detail?: ReactNode; testId: string }) {
  return (
    <div className="tile" data-testid={testId}>
      <div className="tile__label">{label}</div>
      <div className="tile__value">{value}</div>
      {detail && <div className="tile__detail">{detail}</div>}
    </div>
  );
}
