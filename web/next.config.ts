import type { NextConfig } from "next";

/**
 * The security headers of every response, pages and static files alike (issue 16,
 * docs/security.md): no framing, no MIME sniffing, no referrer sent off the portal. Pages also get
 * a Content-Security-Policy with a nonce from proxy.ts (lib/security-headers.ts). Kept here, not
 * imported: next.config.ts is loaded on its own by `next start`.
 */
const SECURITY_HEADERS = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

/**
 * Next.js configuration for the Tierwise portal.
 * The portal renders on the server and calls the Tierwise API with a server-only key,
 * so nothing here is exposed to the browser.
 */
const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  headers: async () => [{ source: "/:path*", headers: SECURITY_HEADERS }],
};

export default nextConfig;
