import { inTransaction, type Queryable } from '@tierwise/common';
import type pg from 'pg';
import { BREACHES_SQL } from './signals.js';

/** Advisory lock key of the evaluation (one notifier evaluates at a time; others skip). */
const EVALUATION_LOCK = 'tierwise.notifier.alerts';

/** The outbox payload of an incident (event.ts alertPayloadSchema), for incidents `i` of rules `r`. */
const ALERT_PAYLOAD = `jsonb_build_object(
  'incident_id', i.id, 'rule_id', r.id, 'rule_name', r.name, 'rule_kind', r.kind, 'subject', i.subject,
  'bin_upper_bytes', r.bin_upper_bytes, 'value', i.value, 'threshold', r.threshold, 'details', i.details,
  'opened_at', i.opened_at, 'resolved_at', i.resolved_at)`;

/** Incidents opened and resolved by one evaluation. */
export interface EvaluationResult {
  opened: number;
  resolved: number;
}

/**
 * Evaluates every enabled alert rule over the metrics tables (signals.ts) in one transaction:
 * a breach without an open incident opens one and writes an `alert.firing` outbox event; an
 * open incident whose breach is gone (or whose rule was disabled) is resolved and writes an
 * `alert.resolved` event. Incidents and their events commit together, and at most one incident
 * per rule and subject is open (alert_incidents_open), so each incident fires once and resolves
 * once, however often it is evaluated and by however many notifiers.
 */
export class AlertEvaluator {
  private lastRun = 0;

  /**
   * @param pool PostgreSQL as tierwise_jobs.
   * @param intervalSeconds seconds between evaluations in {@link evaluateIfDue}.
   */
  constructor(
    private readonly pool: pg.Pool,
    private readonly intervalSeconds: number,
  ) {}

  /** Evaluates when `intervalSeconds` have passed since the last evaluation of this instance. */
  async evaluateIfDue(): Promise<EvaluationResult | undefined> {
    if (Date.now() - this.lastRun < this.intervalSeconds * 1000) return undefined;
    this.lastRun = Date.now();
    return this.evaluate();
  }

  /** Evaluates now; returns zeros when another notifier holds the evaluation lock. */
  evaluate(): Promise<EvaluationResult> {
    return inTransaction(this.pool, async (db) => {
      const { rows } = await db.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS locked', [EVALUATION_LOCK]);
      if (!rows[0]!.locked) return { opened: 0, resolved: 0 };
      // The breach queries are planned over every row of the metrics tables, so their estimated
      // cost passes jit_above_cost; compiling them (and loading LLVM into this backend) costs more
      // than running them (docs/fleet-scale.md, "Memory").
      await db.query('SET LOCAL jit = off');
      await db.query(`CREATE TEMP TABLE alert_breaches ON COMMIT DROP AS ${BREACHES_SQL}`);
      return { opened: await open(db), resolved: await resolve(db) };
    });
  }
}

async function open(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `WITH i AS (
       INSERT INTO alert_incidents (tenant_id, rule_id, subject, value, details)
       SELECT tenant_id, rule_id, subject, value, details FROM alert_breaches
       ON CONFLICT (rule_id, subject) WHERE resolved_at IS NULL DO NOTHING
       RETURNING *)
     INSERT INTO outbox (tenant_id, event_kind, severity, payload)
     SELECT i.tenant_id, 'alert.firing', r.severity, ${ALERT_PAYLOAD}
       FROM i JOIN alert_rules r ON r.id = i.rule_id`,
  );
  return rowCount ?? 0;
}

async function resolve(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `WITH i AS (
       UPDATE alert_incidents o SET resolved_at = now()
        WHERE o.resolved_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM alert_breaches b WHERE b.rule_id = o.rule_id AND b.subject = o.subject)
       RETURNING o.*)
     INSERT INTO outbox (tenant_id, event_kind, severity, payload)
     SELECT i.tenant_id, 'alert.resolved', r.severity, ${ALERT_PAYLOAD}
       FROM i JOIN alert_rules r ON r.id = i.rule_id`,
  );
  return rowCount ?? 0;
}
