import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { EgressError } from './egress-error.js';
import { bareHost } from './egress-policy.js';
import type { EgressTarget } from './resolve-target.js';

/** What the target answered: the status and headers only; its body is discarded unread. */
export interface EgressAnswer {
  status: number;
  headers: IncomingHttpHeaders;
}

export interface EgressRequest {
  headers: Record<string, string>;
  body: string;
  /** Deadline for the answer's status line and headers, in milliseconds. */
  timeoutMs: number;
}

/** A lookup that answers the checked address whatever it is asked (both the single and the `all` forms). */
function pinnedLookup(address: string, family: number): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

/**
 * POSTs to a target of {@link resolveEgressTarget}: connects to `target.address` (the checked
 * one: no second DNS resolution) with the URL's host as Host header and TLS server name (so the
 * certificate is still verified against the host), on a fresh connection, following no
 * redirect (a 3xx is answered like any status). The response body is never read.
 *
 * @throws EgressError `timeout` or `network_error` (both transient).
 */
export function egressPost(target: EgressTarget, request: EgressRequest): Promise<EgressAnswer> {
  const { url } = target;
  const signal = AbortSignal.timeout(request.timeoutMs);
  return new Promise((resolve, reject) => {
    const outgoing = (url.protocol === 'https:' ? https : http).request(
      {
        method: 'POST',
        protocol: url.protocol,
        hostname: bareHost(url),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: pinnedLookup(target.address, target.family),
        agent: false,
        signal,
      },
      (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, headers: response.headers });
      },
    );
    outgoing.on('error', () => {
      reject(signal.aborted ? new EgressError('timeout', false, `no answer within ${request.timeoutMs} ms`) : new EgressError('network_error', false, 'the connection failed'));
    });
    outgoing.end(request.body);
  });
}
