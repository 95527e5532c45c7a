import { describe, expect, it } from 'vitest';
import { bearerCredential, generateCredential, sha256Hex } from './credentials.js';

describe('credentials', () => {
  it('hashes like SHA-256 (FIPS 180-4 test vector "abc")', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('generates distinct 256-bit credentials with their prefix', () => {
    const a = generateCredential('twa_');
    const b = generateCredential('twa_');
    expect(a).toMatch(/^twa_[\w-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('reads the credential of a Bearer header only', () => {
    expect(bearerCredential('Bearer twk_abc')).toBe('twk_abc');
    expect(bearerCredential('bearer twk_abc')).toBe('twk_abc');
    expect(bearerCredential('Basic dXNlcjpwdw==')).toBeNull();
    expect(bearerCredential('Bearer ')).toBeNull();
    expect(bearerCredential(undefined)).toBeNull();
  });
});
