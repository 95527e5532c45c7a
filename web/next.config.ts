import type { NextConfig } from "next";
import { STATIC_SECURITY_HEADERS } from "./lib/security-headers";

/**
 * Next.js configuration for the Tierwise portal.
 * The portal renders on the server and calls the Tierwise API with a server-only key,
 * so nothing here is exposed to the browser.
 */
const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // Pages also get a Content-Security-Policy with a nonce from proxy.ts.
  headers: async () => [{ source: "/:path*", headers: [...STATIC_SECURITY_HEADERS] }],
};

export default nextConfig;
