// A development mailbox: an SMTP server on 127.0.0.1:$TIERWISE_SMTP_PORT (no auth, no TLS)
// that accepts every message, stores it as an .eml file (RFC 5322 source, as received) in
// $TIERWISE_STATE_DIR/mail/ and logs one line per message (from, to, subject, file).
// File name: <UTC time>-<Message-ID>.eml (the notifier's Message-ID is its delivery's
// idempotency key), so a resent delivery is easy to spot. Never use it as a real MTA.
//
//   npm run -w @tierwise/notifier smtp-sink      (env from infra/local/env.sh)
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

function requireEnv(name) {
  const value = process.env[name];
  if (!value) {
    process.stderr.write(`smtp-sink: ${name} is not set (the TIERWISE_* variables come from infra/local/env.sh)\n`);
    process.exit(2);
  }
  return value;
}

const port = Number(requireEnv('TIERWISE_SMTP_PORT'));
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  process.stderr.write(`smtp-sink: TIERWISE_SMTP_PORT must be a port number (got '${process.env.TIERWISE_SMTP_PORT}')\n`);
  process.exit(2);
}
const mailDir = join(requireEnv('TIERWISE_STATE_DIR'), 'mail');
await mkdir(mailDir, { recursive: true });
let sequence = 0;

/** A file name for one message: "20261121T011500123Z-<message id>.eml", filesystem-safe. */
function fileName(messageId) {
  const time = new Date().toISOString().replace(/[-:.]/g, '');
  const id = (messageId ?? `no-message-id-${++sequence}`).replace(/^<|>$/g, '').replace(/[^\w.@+-]/g, '_');
  return `${time}-${id}.eml`;
}

/** Stores one message (written under a temporary name, then renamed, so readers never see half a file). */
async function store(raw) {
  const mail = await simpleParser(raw);
  const file = join(mailDir, fileName(mail.messageId));
  await writeFile(`${file}.tmp`, raw);
  await rename(`${file}.tmp`, file);
  const line = { from: mail.from?.text ?? '', to: mail.to ? [mail.to].flat().map((a) => a.text).join(', ') : '', subject: mail.subject ?? '', file };
  process.stdout.write(`smtp-sink: ${JSON.stringify(line)}\n`);
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  size: MAX_MESSAGE_BYTES,
  logger: false,
  onData(stream, _session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      if (stream.sizeExceeded) {
        callback(Object.assign(new Error(`message larger than ${MAX_MESSAGE_BYTES} bytes`), { responseCode: 552 }));
        return;
      }
      store(Buffer.concat(chunks)).then(() => callback(), (error) => {
        process.stderr.write(`smtp-sink: could not store a message: ${error.message}\n`);
        callback(Object.assign(new Error('could not store the message'), { responseCode: 451 }));
      });
    });
  },
});
server.on('error', (error) => process.stderr.write(`smtp-sink: ${error.message}\n`));
server.server.once('error', (error) => {
  process.stderr.write(`smtp-sink: cannot listen on 127.0.0.1:${port}: ${error.message}\n`);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`smtp-sink: listening on smtp://127.0.0.1:${port}, mail in ${mailDir}\n`));
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => server.close(() => process.exit(0)));
