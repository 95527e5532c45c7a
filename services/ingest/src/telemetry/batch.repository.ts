import { Injectable } from '@nestjs/common';
import type { AgentPrincipal, Queryable } from '@tierwise/common';

/** ingested_batches.kind: which endpoint accepted the batch. */
export type BatchKind = 'metrics' | 'refs';

@Injectable()
export class BatchRepository {
  /**
   * Claims a batch id for the tenant: inserts (tenant_id, kind, batch_id) into ingested_batches
   * unless it is there. The row only becomes visible when the caller's transaction commits; a
   * concurrent claim of the same id waits for that commit and then finds it taken.
   *
   * @param db a client in the agent's tenant transaction.
   * @returns true when this call claimed the id, false when the batch was accepted before.
   */
  async claim(db: Queryable, agent: AgentPrincipal, kind: BatchKind, batchId: string): Promise<boolean> {
    const { rowCount } = await db.query(
      `INSERT INTO ingested_batches (tenant_id, kind, batch_id, agent_id) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, kind, batch_id) DO NOTHING`,
      [agent.tenantId, kind, batchId, agent.agentId],
    );
    return rowCount === 1;
  }
}
