import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/ActionForm";
import { optionalSession } from "@/lib/session";
import { acceptInvitation } from "../actions";
import { PasswordField, TokenField } from "../fields";
import { queryParam } from "../query";

export const metadata: Metadata = { title: "Accept the invitation" };

/**
 * /accept-invitation?token=…: joins the inviting organization. Someone new chooses a name and a
 * password (the mail proved the address); someone signed in accepts as themselves.
 */
export default async function AcceptInvitationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const token = await queryParam(searchParams, "token");
  if (!token) {
    return (
      <>
        <h1>Accept an invitation</h1>
        <p>Open the link of the invitation mail.</p>
      </>
    );
  }
  const session = await optionalSession();
  const here = `/accept-invitation?${new URLSearchParams({ token })}`;
  return (
    <>
      <h1>Join your team on Tierwise</h1>
      <ActionForm action={acceptInvitation} submitLabel="Accept the invitation" testId="accept-form">
        <TokenField token={token} />
        {session ? (
          <p>
            You accept as <strong>{session.user.email}</strong>.
          </p>
        ) : (
          <>
            <label>
              Your name
              <input name="display_name" required maxLength={100} autoComplete="name" />
            </label>
            <PasswordField isNew />
          </>
        )}
      </ActionForm>
      {!session && (
        <p className="auth-links">
          <Link href={`/login?${new URLSearchParams({ next: here })}`}>I already have an account: sign in first</Link>
        </p>
      )}
    </>
  );
}
