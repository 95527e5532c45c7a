// The portal side of the running stack for journeys in a browser: the development
// mailbox (notifier's smtp-sink), the notifier that delivers account mails to it, and
// the built portal (`next start`), on the test profile's ports, beside startStack's
// ingest, api and Flink jobs. Chromium comes from the portal's own launcher
// (web/scripts/chromium.mjs: Debian's chromium driven by playwright-core).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { env, healthy, ROOT, startProcess, stopProcess, waitFor } from './stack.mjs';

export { launchChromium } from '../../../web/scripts/chromium.mjs';

const NEXT_BIN = createRequire(path.join(ROOT, 'web/package.json')).resolve('next/dist/bin/next');

/**
 * Starts the mailbox, the notifier and the portal and waits until each is ready (mailbox:
 * its "listening" line; notifier: GET /healthz; portal: GET /login answers 200).
 * Returns {stop(), mailDir}: the mailbox stores each message as an .eml file in mailDir
 * (a fresh directory, removed by stop).
 * @throws Error with the process's output when one exits or is not ready in time.
 */
export async function startPortal() {
  const stateDir = await mkdtemp(path.join(tmpdir(), 'tierwise-e2e-mail-'));
  const procs = [];
  const stop = async () => {
    for (const p of procs.reverse()) await stopProcess(p);
    await rm(stateDir, { recursive: true, force: true });
  };
  try {
    const sink = startProcess('smtp-sink', 'node', [path.join(ROOT, 'services/notifier/scripts/smtp-sink.mjs')], 'smtp-sink: listening',
      { TIERWISE_STATE_DIR: stateDir });
    procs.push(sink);
    await sink.readyPromise;
    const notifier = startProcess('notifier', 'node', [path.join(ROOT, 'services/notifier/dist/main.js')], null);
    procs.push(notifier);
    await healthy(notifier, `http://127.0.0.1:${env('TIERWISE_NOTIFIER_PORT')}`);
    const web = startProcess('web', 'node', [NEXT_BIN, 'start', 'web', '-H', '127.0.0.1', '-p', env('TIERWISE_WEB_PORT')], null,
      { NEXT_TELEMETRY_DISABLED: '1' });
    procs.push(web);
    await healthy(web, env('TIERWISE_WEB_URL'), { probePath: '/login', timeoutMs: 90_000 });
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop, mailDir: path.join(stateDir, 'mail') };
}

/**
 * The link to `${TIERWISE_WEB_URL}${linkPath}?token=…` in the newest mail to `to` the mailbox
 * received, waiting up to `timeoutMs` for the notifier to deliver it (it polls the outbox).
 */
export async function mailedLink(mailDir, to, linkPath, { timeoutMs = 60_000 } = {}) {
  const pattern = new RegExp(`${env('TIERWISE_WEB_URL')}${linkPath}\\?token=[\\w-]+`);
  return waitFor(`a mail to ${to} with a ${linkPath} link`, async () => {
    const files = (await readdir(mailDir).catch(() => [])).filter((f) => f.endsWith('.eml')).sort().reverse();
    for (const file of files) {
      const mail = await simpleParser(await readFile(path.join(mailDir, file)));
      if (![mail.to].flat().some((a) => a?.value.some((v) => v.address === to))) continue;
      const link = mail.text?.match(pattern);
      if (link) return link[0];
    }
    return null;
  }, { timeoutMs, intervalMs: 500 });
}
