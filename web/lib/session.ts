import "server-only";
import type { Role } from "./permissions";

/** Who a portal request acts as. */
export interface Session {
  role: Role;
}

/**
 * The session of the current request. Until portal login exists, every request acts as a
 * viewer through the portal's read-only API key (TIERWISE_PORTAL_API_KEY).
 */
export async function currentSession(): Promise<Session> {
  return { role: "viewer" };
}
