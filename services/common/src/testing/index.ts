export * from './test-tenants.js';
export * from './volume-rows.js';
export * from './rollup-rows.js';
