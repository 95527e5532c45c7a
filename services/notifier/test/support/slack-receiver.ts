import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scripted answer: status, body and headers (e.g. Retry-After); only for `path` when given. */
export interface ScriptedAnswer {
  path?: string;
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** One POST the receiver saw. */
export interface SlackRequest {
  path: string;
  at: number;
  body: unknown;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
}

const BLOCK_TYPES = new Set(['header', 'section', 'actions', 'divider', 'context']);

/**
 * The problems of a message body against Slack's documented Block Kit limits
 * (https://api.slack.com/reference/block-kit/blocks, /block-kit/block-elements#button,
 * /methods/chat.postMessage): `text` or `blocks` required; ≤ 50 blocks; header text
 * plain_text ≤ 150 chars; section text ≤ 3000 chars and ≤ 10 fields of ≤ 2000; actions 1-25
 * elements; button text plain_text ≤ 75 chars, url ≤ 3000 chars, action_id 1-255 chars and
 * unique within the message; top-level text ≤ 40000 chars.
 */
export function slackPayloadProblems(body: unknown): string[] {
  const problems: string[] = [];
  const payload = body as { text?: unknown; blocks?: Array<Record<string, any>> };
  if (typeof payload !== 'object' || payload === null) return ['body is not a JSON object'];
  if (typeof payload.text !== 'string' && !Array.isArray(payload.blocks)) problems.push('no_text');
  if (typeof payload.text === 'string' && payload.text.length > 40_000) problems.push('msg_too_long');
  const actionIds = new Set<string>();
  for (const block of payload.blocks ?? []) {
    if (!BLOCK_TYPES.has(block.type)) problems.push(`unknown block type ${block.type}`);
    if (block.type === 'header' && (block.text?.type !== 'plain_text' || block.text.text.length > 150)) problems.push('bad header');
    if (block.type === 'section') {
      if (block.text && (typeof block.text.text !== 'string' || block.text.text.length > 3000)) problems.push('bad section text');
      if (block.fields && (block.fields.length > 10 || block.fields.some((f: any) => f.text.length > 2000))) problems.push('bad section fields');
    }
    if (block.type === 'actions') {
      if (!Array.isArray(block.elements) || block.elements.length < 1 || block.elements.length > 25) problems.push('bad actions');
      for (const element of block.elements ?? []) {
        if (element.type !== 'button') continue;
        if (element.text?.type !== 'plain_text' || element.text.text.length > 75) problems.push('bad button text');
        if (typeof element.url !== 'string' || element.url.length > 3000 || !/^https?:\/\//.test(element.url)) problems.push('bad button url');
        if (typeof element.action_id !== 'string' || element.action_id.length < 1 || element.action_id.length > 255) problems.push('bad action_id');
        else if (actionIds.has(element.action_id)) problems.push('duplicate action_id');
        else actionIds.add(element.action_id);
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

/** The Web API method path the receiver serves like slack.com/api. */
export const POST_MESSAGE_PATH = '/api/chat.postMessage';

/**
 * A local HTTP receiver that behaves like Slack:
 * - any path but /api/…: an incoming webhook, answering 200 "ok" for valid Block Kit bodies and
 *   400 "invalid_blocks" otherwise;
 * - /api/chat.postMessage: the Web API method, answering `{"ok":false,"error":"invalid_auth"}`
 *   for a token not in `tokens`, `channel_not_found` for a channel not in `channels`,
 *   `invalid_blocks` for a bad body, else `{"ok":true,"channel","ts"}`.
 * Scripted answers (`script`, then `always`) come first, like Slack's 429 with Retry-After or
 * 500. `delayMs` holds each answer back (to stop a notifier mid-send).
 */
export class SlackReceiver {
  readonly requests: SlackRequest[] = [];
  readonly accepted: SlackRequest[] = [];
  script: ScriptedAnswer[] = [];
  /** Answer for every request after the script (default: behave like Slack). */
  always: ScriptedAnswer | undefined;
  delayMs = 0;
  /** Bot tokens chat.postMessage accepts. */
  readonly tokens = new Set<string>();
  /** Channels chat.postMessage knows. */
  readonly channels = new Set<string>();
  private readonly server = createServer(async (request, response) => {
    const seen: SlackRequest = {
      path: request.url ?? '',
      at: Date.now(),
      body: await readJson(request),
      authorization: request.headers.authorization,
      idempotencyKey: request.headers['x-tierwise-idempotency-key'] as string | undefined,
    };
    this.requests.push(seen);
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    const scripted = this.script.findIndex((entry) => entry.path === undefined || entry.path === seen.path);
    const answer = scripted >= 0 ? this.script.splice(scripted, 1)[0] : this.always;
    if (answer) {
      response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body);
      return;
    }
    const problems = request.method === 'POST' ? slackPayloadProblems(seen.body) : ['method'];
    if (seen.path === POST_MESSAGE_PATH) {
      const channel = (seen.body as { channel?: string } | undefined)?.channel;
      const error = !this.tokens.has(seen.authorization?.replace(/^Bearer /, '') ?? '')
        ? 'invalid_auth'
        : !channel || !this.channels.has(channel)
          ? 'channel_not_found'
          : problems.length > 0
            ? 'invalid_blocks'
            : undefined;
      if (!error) this.accepted.push(seen);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(error ? { ok: false, error } : { ok: true, channel, ts: `${Date.now() / 1000}` }));
      return;
    }
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

  /** Forgets what it saw and its script. */
  reset(): void {
    this.requests.length = 0;
    this.accepted.length = 0;
    this.script = [];
    this.always = undefined;
    this.delayMs = 0;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
