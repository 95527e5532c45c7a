import { PortalError } from "./errors";

/** The direction choices of the workload and matrix views. */
export const DIRECTIONS = { all: "Reads and writes", read: "Reads", write: "Writes" } as const;
export type Direction = keyof typeof DIRECTIONS;

/** What one I/O of a direction is called in a sentence ("share of writes"). */
export const DIRECTION_NOUNS = { all: "command", read: "read", write: "write" } as const;

/**
 * The `direction` query parameter (default all).
 * @throws PortalError bad_request for another value.
 */
export function directionOf(value: string | undefined): Direction {
  const d = value ?? "all";
  if (!(d in DIRECTIONS)) throw new PortalError("bad_request", `direction must be all, read or write, got "${d}".`);
  return d as Direction;
}
