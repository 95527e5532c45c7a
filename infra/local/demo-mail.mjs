// Waits (bounded) until the notifier has delivered the demo tenant's recommendation
// e-mails, then prints where they are. Never fails the demo: when nothing arrives it
// prints a warning naming the notifier's log.
//
//   node demo-mail.mjs --timeout-s 60 --notifier-log FILE
//
// Done when the tenant has recommendation events in the outbox, all of them fanned out
// into deliveries, and no delivery is pending (each is sent or dead). Sent deliveries are
// matched to the .eml files of the development mailbox ($TIERWISE_STATE_DIR/mail, written
// by services/notifier/scripts/smtp-sink.mjs) by Message-ID = <idempotency key@tierwise.notifier>.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { loadDemoTenant, requireEnv, runMain } from './demo-api.mjs';

const POLL_MS = 1000;

const STATE_SQL = `
  SELECT (SELECT count(*)::int FROM outbox WHERE tenant_id = $1) AS events,
         (SELECT count(*)::int FROM outbox WHERE tenant_id = $1 AND fanned_out_at IS NULL) AS not_fanned_out,
         count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
         count(*) FILTER (WHERE d.status = 'sent')::int AS sent,
         count(*) FILTER (WHERE d.status = 'dead')::int AS dead,
         array_agg(d.idempotency_key) FILTER (WHERE d.status = 'sent') AS sent_keys,
         max(d.last_error) FILTER (WHERE d.status = 'dead') AS dead_error
    FROM deliveries d WHERE d.tenant_id = $1`;

/** The mailbox files of the given idempotency keys, one per key (the first if resent). */
function mailFiles(mailDir, keys) {
  let names;
  try {
    names = readdirSync(mailDir).filter((n) => n.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return keys.flatMap((key) => {
    const name = names.find((n) => n.endsWith(`-${key}@tierwise.notifier.eml`));
    return name ? [join(mailDir, name)] : [];
  });
}

runMain('demo-mail', async () => {
  const { values } = parseArgs({ options: { 'timeout-s': { type: 'string', default: '60' }, 'notifier-log': { type: 'string', default: '' } } });
  const timeoutMs = Number(values['timeout-s']) * 1000;
  if (!(timeoutMs > 0)) throw new Error(`--timeout-s must be a positive number of seconds (got '${values['timeout-s']}')`);
  const tenantId = loadDemoTenant().tenant_id;
  const mailDir = join(requireEnv('TIERWISE_STATE_DIR'), 'mail');
  const pool = new pg.Pool({ connectionString: requireEnv('TIERWISE_PG_JOBS_URL'), max: 1 });
  const deadline = Date.now() + timeoutMs;
  let state;
  try {
    for (;;) {
      state = (await pool.query(STATE_SQL, [tenantId])).rows[0];
      const settled = state.events > 0 && state.not_fanned_out === 0 && state.pending === 0;
      if ((settled && mailFiles(mailDir, state.sent_keys ?? []).length === state.sent) || Date.now() >= deadline) break;
      await sleep(POLL_MS);
    }
  } finally {
    await pool.end();
  }
  const files = mailFiles(mailDir, state.sent_keys ?? []);
  const where = relative(requireEnv('TIERWISE_ROOT'), mailDir) || mailDir;
  if (files.length > 0) {
    const { subject } = await simpleParser(readFileSync(files[0]));
    const more = files.length > 1 ? ', …' : '';
    console.log(`Recommendation e-mail delivered: ${files.length} message(s) in ${where}/ (subject: ${subject}${more})`);
  }
  const seeLog = `see the notifier log ${values['notifier-log'] || '(logs/notifier.log)'}`;
  if (state.events === 0) {
    console.log(`warning: no recommendation event for the demo tenant within ${values['timeout-s']} s, so no e-mail; ${seeLog}`);
  } else if (files.length === 0) {
    console.log(`warning: no recommendation e-mail arrived in ${where}/ within ${values['timeout-s']} s `
      + `(${state.events} event(s), ${state.pending} delivery(ies) pending, ${state.dead} dead); ${seeLog}`);
  }
  if (state.dead > 0) console.log(`warning: ${state.dead} e-mail delivery(ies) failed for good (${state.dead_error}); ${seeLog}`);
  if (files.length > 0 && state.pending + state.not_fanned_out > 0) {
    console.log(`warning: ${state.pending + state.not_fanned_out} more still on the way after ${values['timeout-s']} s; ${seeLog}`);
  }
});
