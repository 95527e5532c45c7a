import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EgressError } from './egress-error.js';
import { checkEgressUrl, egressPolicy, trustedOriginProblem } from './egress-policy.js';
import { egressPost } from './egress-post.js';
import { type HostLookup, resolveEgressTarget } from './resolve-target.js';

const SLACK = egressPolicy('https://hooks.slack.com');
const HOOK = 'https://hooks.slack.com/services/T0/B0/secret';

/** The EgressError code a promise rejects with (or 'resolved'). */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof EgressError ? error.code : `not an EgressError: ${String(error)}`),
  );
}

/** A lookup answering `addresses` for every host, counting its calls. */
function fakeLookup(...addresses: string[]): HostLookup & { mock: { calls: unknown[][] } } {
  return vi.fn(async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
}

describe('the egress guard', () => {
  it('refuses, by its form alone, every URL off the trusted origin or carrying userinfo', () => {
    const cases: Array<[string, string]> = [
      ['http://127.0.0.1:8080/hooks/x', 'egress_refused:not_https'],
      ['http://169.254.169.254/latest/meta-data/', 'egress_refused:not_https'],
      ['http://[::1]/', 'egress_refused:not_https'],
      ['http://hooks.slack.com/services/T0/B0/x', 'egress_refused:not_https'],
      ['https://hooks.slack.com@127.0.0.1/services/T0/B0/x', 'egress_refused:userinfo'],
      ['https://user:pw@hooks.slack.com/services/T0/B0/x', 'egress_refused:userinfo'],
      ['https://hooks.slack.com.evil.example/services/T0/B0/x', 'egress_refused:host_not_allowed'],
      ['https://2130706433/services/T0/B0/x', 'egress_refused:host_not_allowed'],
      ['https://0x7f.1/', 'egress_refused:host_not_allowed'],
      ['https://[::ffff:127.0.0.1]/', 'egress_refused:host_not_allowed'],
      ['https://hooks.slack.com:8443/services/T0/B0/x', 'egress_refused:host_not_allowed'],
      ['https://hooks.slack.com./services/T0/B0/x', 'egress_refused:host_not_allowed'],
      ['file:///etc/passwd', 'egress_refused:not_https'],
      ['not a url', 'egress_refused:invalid_url'],
    ];
    for (const [url, code] of cases) {
      expect({ url, code: (() => { try { checkEgressUrl(url, SLACK); return 'accepted'; } catch (error) { return (error as EgressError).code; } })() }).toEqual({ url, code });
    }
    expect(checkEgressUrl('https://HOOKS.slack.com:443/services/T0/B0/x', SLACK).href).toBe('https://hooks.slack.com/services/T0/B0/x');
  });

  it('refuses the allowed host when DNS answers a loopback, private, link-local, CGNAT, metadata or other non-public address', async () => {
    const refused = [
      '127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.100.100.200', '168.63.129.16', '0.0.0.0',
      '224.0.0.1', '255.255.255.255', '240.0.0.1', '192.0.0.192', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:169.254.169.254',
      '::1', '::', 'fe80::1', 'fd00:ec2::254', 'ff02::1', '64:ff9b::a00:1', '2002:7f00:1::1', '::7f00:1', '2001:db8::1',
    ];
    for (const address of refused) {
      expect({ address, code: await codeOf(resolveEgressTarget(HOOK, SLACK, fakeLookup(address))) }).toEqual({ address, code: 'egress_refused:private_address' });
    }
    // Every address is checked, not only the first.
    expect(await codeOf(resolveEgressTarget(HOOK, SLACK, fakeLookup('3.5.140.2', '127.0.0.1')))).toBe('egress_refused:private_address');
  });

  it('resolves once and returns the checked address; a DNS failure is transient', async () => {
    const lookup = fakeLookup('3.5.140.2', '2600:1f18::1');
    const target = await resolveEgressTarget(HOOK, SLACK, lookup);
    expect(target).toMatchObject({ address: '3.5.140.2', family: 4 });
    expect(target.url.href).toBe(HOOK);
    expect(lookup.mock.calls).toEqual([['hooks.slack.com']]);

    const failure = await resolveEgressTarget(HOOK, SLACK, async () => { throw new Error('ENOTFOUND'); }).catch((error: EgressError) => error);
    expect(failure).toMatchObject({ code: 'dns_failure', permanent: false });
  });

  it('takes as trusted origin https only, or http on a loopback IP literal, with no path or user', () => {
    for (const origin of ['https://hooks.slack.com', 'https://hooks.slack.com/', 'http://127.0.0.1:9000', 'http://[::1]:9000']) {
      expect({ origin, problem: trustedOriginProblem(origin) }).toEqual({ origin, problem: undefined });
    }
    for (const origin of ['http://hooks.slack.com', 'http://10.0.0.1', 'http://localhost:9000', 'https://hooks.slack.com/services', 'https://u@hooks.slack.com', 'ftp://hooks.slack.com', 'hooks.slack.com']) {
      expect({ origin, problem: trustedOriginProblem(origin) }).toEqual({ origin, problem: expect.any(String) });
    }
    expect(() => egressPolicy('http://hooks.slack.com')).toThrow(TypeError);
  });
});

describe('egressPost', () => {
  const seen: Array<{ host: string | undefined; path: string | undefined; body: string }> = [];
  let answer: (response: ServerResponse) => void = (response) => response.end('ok');
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer(async (request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      seen.push({ host: request.headers.host, path: request.url, body: Buffer.concat(chunks).toString() });
      answer(response);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const post = (timeoutMs = 2000) =>
    egressPost(
      // A host that resolves nowhere: the request can only arrive by connecting to the checked address.
      { url: new URL(`http://receiver.invalid:${port}/hooks/x?y=1`), address: '127.0.0.1', family: 4 },
      { headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}', timeoutMs },
    );

  it('connects to the checked address, never resolving the host again, and sends Host, path and body', async () => {
    seen.length = 0;
    answer = (response) => response.writeHead(200).end('ok');
    expect(await post()).toMatchObject({ status: 200 });
    expect(seen).toEqual([{ host: `receiver.invalid:${port}`, path: '/hooks/x?y=1', body: '{"text":"hi"}' }]);
  });

  it('follows no redirect and answers status and headers only, never the body', async () => {
    seen.length = 0;
    answer = (response) => response.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end('moved');
    const redirected = await post();
    expect(redirected.status).toBe(302);
    expect(Object.keys(redirected).sort()).toEqual(['headers', 'status']);
    expect(seen.map((request) => request.path)).toEqual(['/hooks/x?y=1']);
  });

  it('answers timeout when no answer comes in time, network_error when the connection fails', async () => {
    answer = (response) => setTimeout(() => response.end('late'), 500);
    expect(await codeOf(post(100))).toBe('timeout');
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = egressPost({ url: new URL(`http://receiver.invalid:${closedPort}/`), address: '127.0.0.1', family: 4 }, { headers: {}, body: '', timeoutMs: 2000 });
    expect(await refused.catch((error: EgressError) => [error.code, error.permanent])).toEqual(['network_error', false]);
  });
});
