import { Injectable } from '@nestjs/common';
import { ApiError, ErrorCode } from '@tierwise/common';
import type { SessionDto } from './account.dto.js';
import { AccountTransactions } from '../identity/account-transaction.js';
import { MembershipsRepository } from '../identity/memberships.repository.js';
import { UsersRepository } from './users.repository.js';

/** Builds the {@link SessionDto} of a session: the user, its organizations and the CSRF token. */
@Injectable()
export class SessionDescriber {
  constructor(
    private readonly transactions: AccountTransactions,
    private readonly users: UsersRepository,
    private readonly memberships: MembershipsRepository,
  ) {}

  /** @throws ApiError 401 when the user is no longer a member of `tenantId`. */
  describe(userId: string, tenantId: string, session: { expiresAt: Date; csrfToken: string }): Promise<SessionDto> {
    return this.transactions.run({ userId, tenantId }, async (db) => {
      const user = await this.users.get(db, userId);
      const organizations = (await this.memberships.organizationsOf(db, userId)).map((o) => ({ id: o.tenant_id, name: o.name, role: o.role }));
      const organization = organizations.find((o) => o.id === tenantId);
      if (!user || !organization) {
        throw new ApiError(ErrorCode.Unauthorized, 'the session has ended');
      }
      return { user, organization, organizations, csrf_token: session.csrfToken, expires_at: session.expiresAt.toISOString() };
    });
  }
}
