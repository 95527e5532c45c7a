import { Injectable } from '@nestjs/common';
import type { AgentPrincipal, Queryable } from '@tierwise/common';
import type { VolumeSource } from '@tierwise/proto';
import { LRUCache } from 'lru-cache';

/**
 * How long a sighting written to the inventory is not written again: hosts.last_seen and
 * volumes.last_seen are as fresh as this, and an agent's every batch costs no inventory write
 * while nothing about its volumes changes (docs/fleet-scale.md).
 */
export const INVENTORY_REFRESH_MS = 60_000;
/** Sightings one ingest process remembers as written (the least recently used go first). */
const REMEMBERED_SIGHTINGS = 200_000;

/** A volume seen in a batch, with the names the host opted in to send (else null). */
export interface VolumeSighting {
  hostId: string;
  volumeId: string;
  hostName: string | null;
  volumeName: string | null;
  /** The cluster the batch names (tierwise.cluster.id / ReferenceBatch.cluster_id), or null. */
  clusterId: string | null;
  /** Where a metrics batch says the volume's figures come from; null for a batch that does not say (references). */
  source: VolumeSource | null;
}

@Injectable()
export class InventoryRepository {
  /** The sightings committed in the last {@link INVENTORY_REFRESH_MS}, by agent and content. */
  private readonly written = new LRUCache<string, true>({ max: REMEMBERED_SIGHTINGS, ttl: INVENTORY_REFRESH_MS });
  /** The sightings a transaction of this process is writing now: key -> how many claim it. */
  private readonly writing = new Map<string, number>();

  /**
   * Writes the sightings of a batch that this process has neither written in the last
   * {@link INVENTORY_REFRESH_MS} (a new volume, or any change of host, cluster, name or source,
   * is a sighting not written yet) nor is writing now for another batch; most batches have none,
   * and then `write` is not called. A sighting another batch is writing is left to that write, so
   * the metrics and reference batches of one host do not upsert its rows together and wait on each
   * other's row locks (docs/fleet-scale.md "Deduplication"); if that write fails, the sighting is
   * written by a later batch. Once `write` resolves, the write of a metrics batch's sighting
   * covers its reference batches' for twice {@link INVENTORY_REFRESH_MS}: the next metrics batch
   * after a minute writes the volume again, and its reference batches, which come with its
   * metrics, write nothing of their own.
   *
   * @param write upserts the sightings it is given ({@link record} in a tenant transaction)
   * @throws whatever `write` throws; its sightings then count as unwritten
   */
  async writeUnwritten(agent: AgentPrincipal, sightings: readonly VolumeSighting[],
    write: (unwritten: VolumeSighting[]) => Promise<void>): Promise<void> {
    const claimed = sightings.filter((s) => {
      const key = sightingKey(agent, s);
      return !this.written.has(key) && !this.writing.has(key);
    });
    if (claimed.length === 0) return;
    const keys = claimed.map((s) => coveredKeys(agent, s));
    for (const key of keys.flat()) this.writing.set(key, (this.writing.get(key) ?? 0) + 1);
    try {
      await write(claimed);
      for (const [own, plain] of keys) {
        this.written.set(own, true);
        if (plain) this.written.set(plain, true, { ttl: 2 * INVENTORY_REFRESH_MS });
      }
    } finally {
      for (const key of keys.flat()) {
        const claims = this.writing.get(key)! - 1;
        if (claims > 0) this.writing.set(key, claims);
        else this.writing.delete(key);
      }
    }
  }

  /**
   * Upserts the hosts and volumes of a batch: first_seen stays, last_seen becomes now, a
   * volume follows the host and the cluster (or none) it was last seen in and the source its last
   * metrics batch gave, and a display name is written only when the
   * batch carries one (a batch without names never erases a stored name). Rows are written in
   * id order so that concurrent batches lock them in the same order.
   *
   * Called by {@link writeUnwritten} with the sightings not written yet.
   *
   * @param db a client in the agent's tenant transaction.
   */
  async record(db: Queryable, agent: AgentPrincipal, sightings: readonly VolumeSighting[]): Promise<void> {
    const hosts = latestById(sightings.map((s) => ({ id: s.hostId, name: s.hostName })));
    const volumes = latestById(sightings.map((s) => ({ id: s.volumeId, name: s.volumeName, hostId: s.hostId, clusterId: s.clusterId, source: s.source })));
    await db.query(
      `INSERT INTO hosts (tenant_id, host_id, agent_id, display_name)
       SELECT $1, h.host_id, $2, h.display_name FROM unnest($3::text[], $4::text[]) AS h (host_id, display_name)
       ON CONFLICT (tenant_id, host_id) DO UPDATE SET
         agent_id = EXCLUDED.agent_id,
         last_seen = now(),
         display_name = COALESCE(EXCLUDED.display_name, hosts.display_name)`,
      [agent.tenantId, agent.agentId, hosts.map((h) => h.id), hosts.map((h) => h.name)],
    );
    await db.query(
      `WITH v AS (SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS v (volume_id, host_id, display_name, cluster_id, source))
       INSERT INTO volumes (tenant_id, volume_id, host_id, display_name, cluster_id, source)
       SELECT $1, v.volume_id, v.host_id, v.display_name, v.cluster_id, COALESCE(v.source, 'agent') FROM v
       ON CONFLICT (tenant_id, volume_id) DO UPDATE SET
         host_id = EXCLUDED.host_id,
         cluster_id = EXCLUDED.cluster_id,
         last_seen = now(),
         display_name = COALESCE(EXCLUDED.display_name, volumes.display_name),
         source = COALESCE((SELECT v.source FROM v WHERE v.volume_id = EXCLUDED.volume_id), volumes.source)`,
      [agent.tenantId, volumes.map((v) => v.id), volumes.map((v) => v.hostId), volumes.map((v) => v.name), volumes.map((v) => v.clusterId), volumes.map((v) => v.source)],
    );
  }
}

/** One entry per id (the last one seen, keeping any name and source seen for it), sorted by id. */
function latestById<T extends { id: string; name: string | null; source?: VolumeSource | null }>(entries: T[]): T[] {
  const byId = new Map<string, T>();
  for (const entry of entries) {
    const before = byId.get(entry.id);
    byId.set(entry.id, { ...entry, name: entry.name ?? before?.name ?? null, source: entry.source ?? before?.source ?? null });
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The keys the write of `s` covers: its own, then, unless it is the same, the key of the sighting
 * that says nothing beyond where the volume is (a reference batch's), as the upsert never erases
 * a name or a source.
 */
function coveredKeys(agent: AgentPrincipal, s: VolumeSighting): string[] {
  const own = sightingKey(agent, s);
  const plain = sightingKey(agent, { ...s, hostName: null, volumeName: null, source: null });
  return plain === own ? [own] : [own, plain];
}

/** A sighting's identity in the written cache: the agent and everything the upsert writes. */
function sightingKey(agent: AgentPrincipal, s: VolumeSighting): string {
  return JSON.stringify([agent.tenantId, agent.agentId, s.hostId, s.volumeId, s.hostName, s.volumeName, s.clusterId, s.source]);
}
