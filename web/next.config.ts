import type { NextConfig } from "next";

/**
 * Next.js configuration for the Tierwise portal.
 * The portal renders on the server and calls the Tierwise API with a server-only key,
 * so nothing here is exposed to the browser.
 */
const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
