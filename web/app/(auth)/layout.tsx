import type { ReactNode } from "react";

/** The account pages (sign in, sign up, mail links): one centred card, no session needed. */
export default function AuthLayout({ children }: { children: ReactNode }) {
  return <section className="auth-card">{children}</section>;
}
