import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { safeReturnPath } from "@/lib/session";
import { logIn } from "../actions";
import { EmailField, PasswordField } from "../fields";
import { queryParam } from "../query";

export const metadata: Metadata = { title: "Sign in" };

/** /login?next=<path>: e-mail and password; back to `next` (a portal path) once signed in. */
export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeReturnPath(await queryParam(searchParams, "next"));
  return (
    <>
      <h1>Sign in to Tierwise</h1>
      <ActionForm action={logIn} submitLabel="Sign in" testId="login-form">
        <input type="hidden" name="next" value={next} />
        <EmailField />
        <PasswordField />
      </ActionForm>
      <p className="auth-links">
        <Link href="/forgot-password">Forgot your password?</Link>
        <Link href="/verify-email">Confirmation mail lost?</Link>
        <Link href="/signup">Create an account</Link>
      </p>
    </>
  );
}
