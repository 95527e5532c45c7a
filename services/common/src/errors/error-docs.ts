import type { Request, Response } from 'express';
import { ERROR_DESCRIPTIONS, ERROR_STATUS, ErrorCode } from './error-code.js';

/** Path of the error-code reference every service serves; doc_url points into it. */
export const ERROR_DOCS_PATH = '/docs/errors';

/**
 * The doc_url of an error body: this service's error reference, at the code's anchor, e.g.
 * `http://127.0.0.1:8080/docs/errors#not_found` (scheme and host of the request itself).
 */
export function errorDocUrl(request: Request, code: ErrorCode): string {
  return `${request.protocol}://${request.get('host') ?? 'localhost'}${ERROR_DOCS_PATH}#${code}`;
}

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The error reference: one section per {@link ErrorCode}, with its id as the anchor. */
export function errorDocsHtml(): string {
  const sections = Object.values(ErrorCode).map(
    (code) => `<section id="${code}"><h2>${code} (HTTP ${ERROR_STATUS[code]})</h2><p>${escapeHtml(ERROR_DESCRIPTIONS[code])}</p></section>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tierwise error codes</title></head><body>
<h1>Tierwise error codes</h1>
<p>Every 4xx/5xx answer has the body <code>{code, message, request_id, doc_url}</code>; <code>code</code> is one of these.</p>
${sections.join('\n')}
</body></html>\n`;
}

/** Express handler of GET {@link ERROR_DOCS_PATH}. */
export function serveErrorDocs(_request: Request, response: Response): void {
  response.type('html').send(errorDocsHtml());
}
