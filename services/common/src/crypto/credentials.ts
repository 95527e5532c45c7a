import { createHash, randomBytes } from 'node:crypto';

/** Bytes of entropy of a generated credential (agent token, API key): 256 bits. */
export const CREDENTIAL_BYTES = 32;

/**
 * SHA-256 of a credential as lowercase hex: the form stored in agents.token_sha256 and
 * api_keys.key_sha256 (the service never stores the credential itself).
 *
 * @param credential the token or key exactly as the client sends it (UTF-8).
 * @returns 64 lowercase hex characters.
 */
export function sha256Hex(credential: string): string {
  return createHash('sha256').update(credential, 'utf8').digest('hex');
}

/**
 * A new random credential: {@link CREDENTIAL_BYTES} bytes from the OS CSPRNG, base64url
 * (43 characters, safe in an HTTP header).
 *
 * @param prefix a readable tag such as `twa_` (agent) or `twk_` (API key), kept in front.
 */
export function generateCredential(prefix: string): string {
  return prefix + randomBytes(CREDENTIAL_BYTES).toString('base64url');
}

/**
 * The credential of an `Authorization: Bearer <credential>` header (RFC 6750 section 2.1).
 *
 * @returns the credential, or null when the header is missing or not a Bearer header.
 */
export function bearerCredential(authorization: string | undefined): string | null {
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(authorization ?? '');
  return match ? match[1] : null;
}

/** Characters of a credential kept visible in lists (the `twk_` tag and 8 random characters, 48 bits). */
export const CREDENTIAL_PREFIX_LENGTH = 12;

/** The visible prefix of a credential (api_keys.key_prefix): enough to tell keys apart, useless to authenticate. */
export function credentialPrefix(credential: string): string {
  return credential.slice(0, CREDENTIAL_PREFIX_LENGTH);
}
