/**
 * "Download fio job": a GET form to the portal's download route
 * (app/volumes/[volumeId]/fio-job/route.ts) with the page's range, paced at the measured IOPS
 * (default) or unpaced. The browser saves the job file (an attachment) and stays on the page;
 * it works without JavaScript.
 */
export function FioJobForm({ volumeId, keep }: { volumeId: string; keep: Record<string, string> }) {
  return (
    <form className="fio-job" method="get" action={`/volumes/${encodeURIComponent(volumeId)}/fio-job`} data-testid="fio-job-form">
      {Object.entries(keep).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <select name="rate" defaultValue="true" aria-label="fio job pacing">
        <option value="true">Paced at the measured IOPS</option>
        <option value="false">Unpaced (as fast as the device goes)</option>
      </select>
      <button type="submit" title="An fio job file that replays this volume's measured mix over the chosen range">
        Download fio job
      </button>
    </form>
  );
}
