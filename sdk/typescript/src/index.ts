export * from './client.js';
export * from './errors.js';
export * from './pagination.js';
export type { components, paths } from './generated/openapi.js';
