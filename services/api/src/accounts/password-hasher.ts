import { Injectable, type OnModuleInit } from '@nestjs/common';
import argon2 from 'argon2';

/**
 * argon2id parameters: OWASP Password Storage Cheat Sheet, "Argon2id": a minimum of 19 MiB of
 * memory, an iteration count of 2 and 1 degree of parallelism (m=19456 KiB, t=2, p=1).
 * Hashes are PHC strings ($argon2id$v=19$m=19456,p=1,t=2$<salt>$<hash>) with a 16-byte salt.
 */
export const ARGON2ID_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** Passwords: at least 12 characters (NIST SP 800-63B section 3.1.1.2 asks 8 at least; 15 without MFA), at most 256. */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/** Hashes and checks passwords with argon2id (node-argon2, the reference C implementation). */
@Injectable()
export class PasswordHasher implements OnModuleInit {
  /** A hash of a random password, verified against when the e-mail is unknown so that both cases take the same time. */
  private decoy = '';

  async onModuleInit(): Promise<void> {
    this.decoy = await argon2.hash(crypto.randomUUID(), ARGON2ID_OPTIONS);
  }

  /** The argon2id PHC string of `password`. */
  hash(password: string): Promise<string> {
    return argon2.hash(password, ARGON2ID_OPTIONS);
  }

  /**
   * Whether `password` matches `hash`; a null hash (an OIDC-only user, or no user) is checked
   * against a decoy and never matches.
   */
  async verify(hash: string | null, password: string): Promise<boolean> {
    const matches = await argon2.verify(hash ?? this.decoy, password).catch(() => false);
    return hash !== null && matches;
  }

  /** Whether `hash` was made with other parameters than {@link ARGON2ID_OPTIONS} (rehash at the next login). */
  needsRehash(hash: string): boolean {
    return argon2.needsRehash(hash, ARGON2ID_OPTIONS);
  }
}
