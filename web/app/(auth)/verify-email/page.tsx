import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { resendVerification, verifyEmail } from "../actions";
import { EmailField, TokenField } from "../fields";
import { queryParam } from "../query";

export const metadata: Metadata = { title: "Confirm your address" };

/**
 * /verify-email?token=…: the link of the confirmation mail. Confirming takes a click (a POST),
 * so a mail scanner that prefetches links does not spend the single-use token.
 */
export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = await queryParam(searchParams, "token");
  return (
    <>
      <h1>Confirm your e-mail address</h1>
      {token ? (
        <ActionForm action={verifyEmail} submitLabel="Confirm my address" testId="verify-form">
          <TokenField token={token} />
        </ActionForm>
      ) : (
        <p>Open the link of the mail we sent you.</p>
      )}
      <h2>No mail, or the link expired?</h2>
      <ActionForm action={resendVerification} submitLabel="Send a new link">
        <EmailField />
      </ActionForm>
      <p className="auth-links">
        <Link href="/login">Sign in</Link>
      </p>
    </>
  );
}
