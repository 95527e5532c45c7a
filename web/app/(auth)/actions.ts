"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { API_COOKIES, apiRequest } from "@/lib/api-client";
import { formAction, parseForm } from "@/lib/actions";
import { PortalError } from "@/lib/errors";
import { currentSession, optionalSession, safeReturnPath, SessionInfo } from "@/lib/session";

/** Passwords as the API accepts them (services/api/src/accounts/password-hasher.ts): 12 to 256 characters. */
const Password = z.string().min(12, "at least 12 characters").max(256, "at most 256 characters");
const Email = z.email("not an e-mail address").max(254);
const Token = z.string().regex(/^[A-Za-z0-9_-]{16,128}$/, "the link is incomplete; open the one in the mail again");
const Accepted = z.object({ message: z.string() });

/** POST /v1/auth/login, then back to the page the user asked for (the `next` field). */
export const logIn = formAction(
  async (form) => {
    const { email, password, next } = parseForm(z.object({ email: Email, password: z.string().min(1, "required"), next: z.string().optional() }), form);
    await apiRequest("POST", "/v1/auth/login", { schema: SessionInfo, body: { email, password } });
    redirect(safeReturnPath(next));
  },
  { public: true },
);

/** POST /v1/auth/signup: the API mails a verification link (202 whatever the address). */
export const signUp = formAction(
  async (form) => {
    const body = parseForm(
      z.object({ email: Email, password: Password, display_name: z.string().trim().min(1, "required").max(100), organization_name: z.string().trim().min(1, "required").max(100) }),
      form,
    );
    await apiRequest("POST", "/v1/auth/signup", { schema: Accepted, body });
    return { ok: true, message: `Almost there: we mailed a link to ${body.email}. Open it to confirm your address, then sign in.` };
  },
  { public: true },
);

/** POST /v1/auth/verify-email with the token of the mailed link. */
export const verifyEmail = formAction(
  async (form) => {
    const { token } = parseForm(z.object({ token: Token }), form);
    await apiRequest("POST", "/v1/auth/verify-email", { schema: Accepted, body: { token } });
    return { ok: true, message: "Your address is confirmed. You can sign in now." };
  },
  { public: true },
);

/** POST /v1/auth/verify-email/resend (same answer whether or not the address has an account). */
export const resendVerification = formAction(
  async (form) => {
    const { email } = parseForm(z.object({ email: Email }), form);
    await apiRequest("POST", "/v1/auth/verify-email/resend", { schema: Accepted, body: { email } });
    return { ok: true, message: `If ${email} has an account waiting for confirmation, a new link is on its way.` };
  },
  { public: true },
);

/** POST /v1/auth/password-reset (same answer whether or not the address has an account). */
export const requestPasswordReset = formAction(
  async (form) => {
    const { email } = parseForm(z.object({ email: Email }), form);
    await apiRequest("POST", "/v1/auth/password-reset", { schema: Accepted, body: { email } });
    return { ok: true, message: `If ${email} has an account, a link to choose a new password is on its way (valid for 1 hour).` };
  },
  { public: true },
);

/** POST /v1/auth/password-reset/confirm: a new password; the API ends every session of the account. */
export const resetPassword = formAction(
  async (form) => {
    const { token, password } = parseForm(z.object({ token: Token, password: Password }), form);
    await apiRequest("POST", "/v1/auth/password-reset/confirm", { schema: Accepted, body: { token, password } });
    return { ok: true, message: "Your password is changed and every session of your account has ended. Sign in with the new password." };
  },
  { public: true },
);

/**
 * POST /v1/auth/invitations/accept. A new account gives its name and password; someone signed
 * in accepts as themselves (with the session's CSRF token). Lands on the organization's overview.
 */
export const acceptInvitation = formAction(
  async (form) => {
    const { token, display_name, password } = parseForm(
      z.object({ token: Token, display_name: z.string().trim().min(1).max(100).optional(), password: Password.optional() }),
      form,
    );
    const signedIn = await optionalSession();
    await apiRequest("POST", "/v1/auth/invitations/accept", {
      schema: SessionInfo,
      body: signedIn ? { token } : { token, display_name, password },
      csrfToken: signedIn?.csrfToken,
    });
    redirect("/");
  },
  { public: true },
);

/** POST /v1/auth/organization: the session moves to another organization of the user (a new session cookie), then the overview. */
export async function switchOrganization(form: FormData): Promise<void> {
  const { organization_id } = parseForm(z.object({ organization_id: z.uuid() }), form);
  const { csrfToken } = await currentSession();
  await apiRequest("POST", "/v1/auth/organization", { schema: SessionInfo, body: { organization_id }, csrfToken });
  redirect("/");
}

/** POST /v1/auth/logout; the portal forgets the cookies even when the API had already ended the session. */
export async function logOut(): Promise<void> {
  try {
    const { csrfToken } = await currentSession();
    await apiRequest("POST", "/v1/auth/logout", { schema: z.object({ sessions_ended: z.number() }), csrfToken });
  } catch (err) {
    if (!(err instanceof PortalError) || err.code !== "unauthorized") throw err;
  }
  const jar = await cookies();
  for (const name of API_COOKIES) jar.delete(name);
  redirect("/login");
}
