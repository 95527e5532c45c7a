import { describe, expect, it } from 'vitest';
import { retryDelaySeconds } from './backoff.js';

const policy = { maxAttempts: 8, baseDelaySeconds: 1, maxDelaySeconds: 60 };

describe('retryDelaySeconds', () => {
  it('doubles from the base delay after each failed attempt', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelaySeconds(n, policy))).toEqual([1, 2, 4, 8, 16]);
  });

  it('caps the delay at maxDelaySeconds', () => {
    expect(retryDelaySeconds(7, policy)).toBe(60);
    expect(retryDelaySeconds(30, policy)).toBe(60);
  });

  it('never waits less than the receiver asked for with Retry-After, even beyond the cap', () => {
    expect(retryDelaySeconds(1, policy, 5)).toBe(5);
    expect(retryDelaySeconds(5, policy, 5)).toBe(16);
    expect(retryDelaySeconds(1, policy, 120)).toBe(120);
  });

  it('refuses a non-positive attempt count', () => {
    expect(() => retryDelaySeconds(0, policy)).toThrow(/positive integer/);
  });
});
