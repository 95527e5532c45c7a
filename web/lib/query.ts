import { z } from "zod";
import { PortalError } from "./errors";

/**
 * Parses a page's query with `schema`.
 * @throws PortalError bad_request naming every invalid parameter.
 */
export async function parseQuery<S extends z.ZodType>(schema: S, searchParams: Promise<Record<string, string | string[] | undefined>>): Promise<z.infer<S>> {
  const parsed = schema.safeParse(await searchParams);
  if (!parsed.success) throw new PortalError("bad_request", z.prettifyError(parsed.error));
  return parsed.data;
}
