/**
 * The contracts the services and the portal share, declared once (no runtime dependencies, so
 * the portal's client bundle may import them as `@tierwise/common/contracts`).
 */
export * from './cache-policy.js';
export * from './ids.js';
export * from './io-counters.js';
