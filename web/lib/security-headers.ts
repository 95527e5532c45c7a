/**
 * The Content-Security-Policy of every portal page (issue 16, docs/security.md; the other
 * security headers, on every response, are in next.config.ts): scripts must carry the request's nonce (Next.js applies it to its
 * own scripts when it finds the policy on the request: "How to set a Content Security Policy",
 * nextjs.org/docs/app/guides/content-security-policy), no framing, no MIME sniffing, and no
 * referrer sent off the portal. Styles may be inline: React renders style attributes and the
 * charts set element styles, and a style cannot run code.
 */

/** The request header that carries the nonce to the pages (layout.tsx gives it to its own script). */
export const NONCE_HEADER = "x-nonce";

/** The Content-Security-Policy for a response whose scripts carry `nonce`. */
export function contentSecurityPolicy(nonce: string, development = process.env.NODE_ENV !== "production"): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts the nonced ones load are trusted too; development needs eval for its reloads.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
