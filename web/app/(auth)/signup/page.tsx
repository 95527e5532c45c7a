import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { signUp } from "../actions";
import { EmailField, PasswordField } from "../fields";

export const metadata: Metadata = { title: "Create an account" };

/** /signup: a new account and its organization (you become its owner); a confirmation link is mailed. */
export default function SignupPage() {
  return (
    <>
      <h1>Create your Tierwise account</h1>
      <ActionForm action={signUp} submitLabel="Create account" testId="signup-form">
        <label>
          Your name
          <input name="display_name" required maxLength={100} autoComplete="name" />
        </label>
        <label>
          Organization
          <input name="organization_name" required maxLength={100} autoComplete="organization" />
        </label>
        <EmailField />
        <PasswordField isNew />
      </ActionForm>
      <p className="auth-links">
        <Link href="/login">I already have an account</Link>
      </p>
    </>
  );
}
