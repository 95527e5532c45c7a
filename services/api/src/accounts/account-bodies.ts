import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password-hasher.js';

/** An e-mail address (RFC 5321: 254 characters at most), compared in lower case. */
const email = z.email().max(254).transform((value) => value.toLowerCase()).describe('e-mail address');
const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `password must have at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH)
  .describe(`password, ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters`);
const name = z.string().trim().min(1).max(100);
/** A one-time token from an e-mail link (generateCredential: prefix + 43 base64url characters). */
const token = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, 'token must be the 16-128 character code of the link').describe('the token of the e-mail link');
/** Roles of members (memberships.role). */
export const roleSchema = z.enum(['owner', 'admin', 'viewer']).describe('owner: everything incl. owners; admin: everything but owners; viewer: read only');

/** POST /v1/auth/signup */
export const signupBodySchema = z.strictObject({
  email,
  password,
  display_name: name.describe('your name'),
  organization_name: name.describe('the organization to create, of which you become owner'),
});
export type SignupBody = z.output<typeof signupBodySchema>;

/** POST /v1/auth/login */
export const loginBodySchema = z.strictObject({
  email,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
  organization_id: z.uuid().optional().describe('organization to log in to; default: your oldest membership'),
});
export type LoginBody = z.output<typeof loginBodySchema>;

/** POST /v1/auth/verify-email, POST /v1/auth/invitations/lookup */
export const tokenBodySchema = z.strictObject({ token });
export type TokenBody = z.output<typeof tokenBodySchema>;

/** POST /v1/auth/verify-email/resend, POST /v1/auth/password-reset */
export const emailBodySchema = z.strictObject({ email });
export type EmailBody = z.output<typeof emailBodySchema>;

/** POST /v1/auth/password-reset/confirm */
export const passwordResetBodySchema = z.strictObject({ token, password });
export type PasswordResetBody = z.output<typeof passwordResetBodySchema>;

/** POST /v1/auth/organization (switch the session's organization) */
export const switchOrganizationBodySchema = z.strictObject({ organization_id: z.uuid() });
export type SwitchOrganizationBody = z.output<typeof switchOrganizationBodySchema>;

/** POST /v1/organization/invitations */
export const invitationBodySchema = z.strictObject({ email, role: roleSchema });
export type InvitationBody = z.output<typeof invitationBodySchema>;

/** POST /v1/auth/invitations/accept: a new user gives a name and password; a logged-in user gives neither. */
export const acceptInvitationBodySchema = z.strictObject({
  token,
  display_name: name.optional().describe('your name (new account only)'),
  password: password.optional().describe('your password (new account only)'),
});
export type AcceptInvitationBody = z.output<typeof acceptInvitationBodySchema>;

/** PATCH /v1/organization/members/{userId} */
export const roleBodySchema = z.strictObject({ role: roleSchema });
export type RoleBody = z.output<typeof roleBodySchema>;

/** Path parameters userId, invitationId. */
export const uuidParamSchema = z.uuid().describe('UUID');
