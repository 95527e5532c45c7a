/**
 * Pseudonymous ids of volumes, hosts and clusters: lowercase hex of the agent's keyed hash under
 * the tenant key (SipHash-2-4 gives 16 characters; shared/DESIGN.md "anonymity"), accepted at 8 to
 * 64 characters. Ingest checks what agents send against it, the api its path and query ids.
 */
export const PSEUDONYMOUS_ID_PATTERN = /^[0-9a-f]{8,64}$/;

/** A host id as the agent sends it: SipHash-2-4 of the host name under the tenant key, 16 lowercase hex characters. */
export const HOST_ID_PATTERN = /^[0-9a-f]{16}$/;
