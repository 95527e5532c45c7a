import { getFioJob } from "@/lib/analytics-api";
import { PortalError } from "@/lib/errors";
import { defineRoute } from "@/lib/route";
import { parseRange } from "@/lib/time-range";

/** The api's headers the download keeps: the job's media type and its attachment file name. */
const KEPT_HEADERS = ["Content-Type", "Content-Disposition"];

/**
 * The `rate` parameter: "true" (default) paces the job at the measured IOPS, "false" runs it as
 * fast as the device goes.
 * @throws PortalError bad_request for another value.
 */
function pacedOf(rate: string | undefined): boolean {
  if (rate === undefined || rate === "true") return true;
  if (rate === "false") return false;
  throw new PortalError("bad_request", `rate must be true or false, got "${rate}".`);
}

/**
 * GET /volumes/[volumeId]/fio-job?range=…|from=…&to=…&rate=true|false: the fio job file of the
 * volume's measured mix over the page's range (a preset ends now), streamed from the api
 * (GET /v1/volumes/{id}/fio-job) as the signed-in user with its Content-Disposition, so the
 * browser saves it (tierwise-<volume id>.fio).
 */
export const GET = defineRoute<{ volumeId: string }>({ permission: "volumes.read" }, async (request, { volumeId }) => {
  const query = Object.fromEntries(request.nextUrl.searchParams);
  const job = await getFioJob(volumeId, parseRange(query), pacedOf(query.rate));
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const name of KEPT_HEADERS) {
    const value = job.headers.get(name);
    if (value) headers.set(name, value);
  }
  return new Response(job.body, { headers });
});
