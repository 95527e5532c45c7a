import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { requestPasswordReset } from "../actions";
import { EmailField } from "../fields";

export const metadata: Metadata = { title: "Forgot your password" };

/** /forgot-password: mails a link to choose a new password. */
export default function ForgotPasswordPage() {
  return (
    <>
      <h1>Choose a new password</h1>
      <p>We will mail you a link, valid for one hour.</p>
      <ActionForm action={requestPasswordReset} submitLabel="Mail me a link" testId="forgot-form">
        <EmailField />
      </ActionForm>
      <p className="auth-links">
        <Link href="/login">Back to sign in</Link>
      </p>
    </>
  );
}
