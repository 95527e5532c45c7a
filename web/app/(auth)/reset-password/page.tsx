import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { resetPassword } from "../actions";
import { PasswordField, TokenField } from "../fields";
import { queryParam } from "../query";

export const metadata: Metadata = { title: "New password" };

/** /reset-password?token=…: the link of the reset mail; sets a new password and ends every session. */
export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = await queryParam(searchParams, "token");
  return (
    <>
      <h1>Choose a new password</h1>
      {token ? (
        <ActionForm action={resetPassword} submitLabel="Set the new password" testId="reset-form">
          <TokenField token={token} />
          <PasswordField isNew label="New password" />
        </ActionForm>
      ) : (
        <p>
          Open the link of the mail we sent you, or <Link href="/forgot-password">ask for a new one</Link>.
        </p>
      )}
      <p className="auth-links">
        <Link href="/login">Sign in</Link>
      </p>
    </>
  );
}
