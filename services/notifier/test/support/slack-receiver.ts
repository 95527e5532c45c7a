import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted answer: status, body and headers (e.g. Retry-After). */
export interface ScriptedAnswer {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** One POST the receiver saw. */
export interface SlackRequest {
  path: string;
  at: number;
  body: unknown;
  idempotencyKey: string | undefined;
}

const BLOCK_TYPES = new Set(['header', 'section', 'actions', 'divider', 'context']);

/**
 * The problems of an incoming-webhook body against Slack's documented Block Kit limits
 * (https://api.slack.com/reference/block-kit/blocks): `text` or `blocks` required; ≤ 50 blocks;
 * header text plain_text ≤ 150 chars; section text ≤ 3000 chars and ≤ 10 fields of ≤ 2000;
 * actions ≤ 25 elements; button text plain_text ≤ 75 chars and url ≤ 3000 chars.
 */
export function slackPayloadProblems(body: unknown): string[] {
  const problems: string[] = [];
  const payload = body as { text?: unknown; blocks?: Array<Record<string, any>> };
  if (typeof payload !== 'object' || payload === null) return ['body is not a JSON object'];
  if (typeof payload.text !== 'string' && !Array.isArray(payload.blocks)) problems.push('no_text');
  for (const block of payload.blocks ?? []) {
    if (!BLOCK_TYPES.has(block.type)) problems.push(`unknown block type ${block.type}`);
    if (block.type === 'header' && (block.text?.type !== 'plain_text' || block.text.text.length > 150)) problems.push('bad header');
    if (block.type === 'section') {
      if (block.text && (typeof block.text.text !== 'string' || block.text.text.length > 3000)) problems.push('bad section text');
      if (block.fields && (block.fields.length > 10 || block.fields.some((f: any) => f.text.length > 2000))) problems.push('bad section fields');
    }
    if (block.type === 'actions') {
      if (!Array.isArray(block.elements) || block.elements.length > 25) problems.push('bad actions');
      for (const element of block.elements ?? []) {
        if (element.type === 'button' && (element.text?.type !== 'plain_text' || element.text.text.length > 75 || (element.url && element.url.length > 3000))) {
          problems.push('bad button');
        }
      }
    }
  }
  if ((payload.blocks?.length ?? 0) > 50) problems.push('too many blocks');
  return problems;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A local HTTP receiver that behaves like a Slack incoming webhook: answers the scripted
 * answers first, then 200 "ok" for valid Block Kit bodies and 400 "invalid_blocks" otherwise.
 * `delayMs` holds each answer back (to stop a notifier mid-send).
 */
export class SlackReceiver {
  readonly requests: SlackRequest[] = [];
  readonly accepted: SlackRequest[] = [];
  script: ScriptedAnswer[] = [];
  /** Answer for every request after the script (default: accept valid bodies). */
  always: ScriptedAnswer | undefined;
  delayMs = 0;
  private readonly server = createServer(async (request, response) => {
    const seen: SlackRequest = {
      path: request.url ?? '',
      at: Date.now(),
      body: await readJson(request),
      idempotencyKey: request.headers['x-tierwise-idempotency-key'] as string | undefined,
    };
    this.requests.push(seen);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const answer = this.script.shift() ?? this.always;
    if (answer) {
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body);
      return;
    }
    const problems = request.method === 'POST' ? slackPayloadProblems(seen.body) : ['method'];
    if (problems.length > 0) {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_blocks');
      return;
    }
    this.accepted.push(seen);
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });

  /** Listens on 127.0.0.1; returns the base URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
