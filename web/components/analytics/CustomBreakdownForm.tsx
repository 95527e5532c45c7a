import { sizeBinLabel } from "@/lib/block-size-bins";

/**
 * The custom breakdown: a direction and a set of ioLength bins (a GET form, so the choice lives
 * in the URL). The API merges exactly those histograms: the percentiles are of the selection.
 */
export function CustomBreakdownForm({ path, keep, sizeBins, direction, chosen }: { path: string; keep: Record<string, string>; sizeBins: string[]; direction: string; chosen: string[] }) {
  return (
    <form method="get" action={path} className="custom-form" aria-label="Custom breakdown">
      {Object.entries(keep).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="breakdown" value="custom" />
      <label>
        Direction{" "}
        <select name="direction" defaultValue={direction}>
          <option value="">Reads and writes</option>
          <option value="read">Reads</option>
          <option value="write">Writes</option>
        </select>
      </label>
      <fieldset>
        <legend>Block sizes</legend>
        {sizeBins.map((bin) => (
          <label key={bin}>
            <input type="checkbox" name="bin" value={bin} defaultChecked={chosen.includes(bin)} /> {sizeBinLabel(bin)}
          </label>
        ))}
      </fieldset>
      <button type="submit">Apply</button>
    </form>
  );
}
