import { Injectable } from '@nestjs/common';
import { type AgentPrincipal, DatabaseService } from '@tierwise/common';
import { PolicyChangeListener } from './policy-change.listener.js';
import { type AppliedReport, type PolicyDocument, policyDocument } from './policy-document.js';
import { AgentPolicyRepository, type IgnoredReport } from './policy.repository.js';

/**
 * Policy pull (docs/policies.md): agents read the desired policies of their volumes, waiting
 * for a change when they already hold the current document, and report what they applied.
 */
@Injectable()
export class PolicyPullService {
  constructor(
    private readonly database: DatabaseService,
    private readonly policies: AgentPolicyRepository,
    private readonly listener: PolicyChangeListener,
  ) {}

  /**
   * The document of `volumeIds`. When its entity tag equals `knownEtag`, waits up to `waitMs`
   * milliseconds for a change of the tenant's policies (re-reading after every notification);
   * returns null when nothing changed by then or `signal` aborted.
   */
  async pull(agent: AgentPrincipal, volumeIds: readonly string[], knownEtag: string | undefined, waitMs: number, signal: AbortSignal): Promise<PolicyDocument | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      // Listen before reading, so a change committed between the read and the wait still wakes us.
      const remaining = deadline - Date.now();
      const change = remaining > 0 ? this.listener.waitForChange(agent.tenantId, remaining, signal) : null;
      const document = policyDocument(await this.database.withTenant(agent.tenantId, (db) => this.policies.desired(db, agent, volumeIds)));
      if (document.etag !== knownEtag) return document;
      if (!change || !(await change)) return null;
    }
  }

  /** Records the agent's applied versions; returns the reports not recorded, with the reason. */
  applied(agent: AgentPrincipal, report: AppliedReport): Promise<IgnoredReport[]> {
    return this.database.withTenant(agent.tenantId, (db) => this.policies.recordApplied(db, agent, report));
  }
}
