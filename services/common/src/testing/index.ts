export * from './test-tenants.js';
