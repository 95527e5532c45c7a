import "server-only";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { PortalError } from "./errors";
import type { FormState } from "./form-state";
import { redirectToLogin } from "./session";

/**
 * Reads a form's fields with `schema` (zod at the boundary: the browser's input is untrusted).
 * @throws PortalError bad_request naming every invalid field.
 */
export function parseForm<S extends z.ZodType>(schema: S, form: FormData): z.infer<S> {
  const parsed = schema.safeParse(Object.fromEntries(form));
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".") || "form"}: ${i.message}`);
    throw new PortalError("bad_request", fields.join("; "));
  }
  return parsed.data;
}

/**
 * Wraps a form's Server Action: runs `run`, revalidates `options.revalidate` (the page shows
 * the change) and answers its FormState; a PortalError becomes `{ok: false, message}` (the
 * API's message names the field of a 400, the request id is appended for support). On a page
 * that needs a session an ended session redirects to /login; on a public page
 * (`options.public`, e.g. a wrong password) the 401 is just the message. Other errors
 * propagate to the error boundary; redirect() inside `run` works as usual.
 */
export function formAction(run: (form: FormData) => Promise<FormState>, options: { revalidate?: string; public?: boolean } = {}) {
  return async (_previous: FormState | null, form: FormData): Promise<FormState> => {
    let unauthorized = false;
    try {
      const state = await run(form);
      if (options.revalidate) revalidatePath(options.revalidate);
      return state;
    } catch (err) {
      if (!(err instanceof PortalError)) throw err;
      if (err.code !== "unauthorized" || options.public) {
        return { ok: false, message: err.requestId ? `${err.message} (request ${err.requestId})` : err.message };
      }
      unauthorized = true;
    }
    if (unauthorized) await redirectToLogin();
    return { ok: false, message: "You are not signed in." };
  };
}
