import { Controller, Get, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-code.js';
import { createServiceApp } from './bootstrap.js';

@Controller('probe')
class ProbeController {
  @Get('missing')
  missing(): never {
    throw new ApiError(ErrorCode.NotFound, 'volume abc not found');
  }

  @Get('busy')
  busy(): never {
    throw new ApiError(ErrorCode.Unavailable, 'broker unavailable', { retryAfterSeconds: 7 });
  }

  @Get('database-down')
  databaseDown(): never {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25532'), { code: 'ECONNREFUSED' });
  }

  @Get('crash')
  crash(): never {
    throw new Error('secret detail');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('createServiceApp', () => {
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    app = await createServiceApp(ProbeModule, { logLevels: [] });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });

  afterAll(() => app.close());

  it('answers an ApiError with its status, code and the request id', async () => {
    const response = await fetch(`${base}/probe/missing`, { headers: { 'x-request-id': 'req-42' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toBe('req-42');
    expect(await response.json()).toEqual({ code: 'not_found', message: 'volume abc not found', request_id: 'req-42', doc_url: `${base}/docs/errors#not_found` });
  });

  it('serves the error-code reference doc_url points into, one anchor per code', async () => {
    const response = await fetch(`${base}/docs/errors`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    for (const code of Object.values(ErrorCode)) {
      expect(page).toContain(`<section id="${code}">`);
    }
    expect(page).toContain('not_found (HTTP 404)');
  });

  it('makes up a request id when the client sends none, and sets Retry-After when asked', async () => {
    const response = await fetch(`${base}/probe/busy`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('7');
    const body = (await response.json()) as { request_id: string };
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.request_id).toBe(response.headers.get('x-request-id'));
  });

  it('answers an unknown route with the error body', async () => {
    const response = await fetch(`${base}/nowhere`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found', message: 'Cannot GET /nowhere' });
  });

  it('answers 503 with Retry-After when PostgreSQL is unreachable', async () => {
    const response = await fetch(`${base}/probe/database-down`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toMatchObject({ code: 'unavailable', message: 'database unavailable, retry later' });
  });

  it('hides the detail of an unexpected error', async () => {
    const response = await fetch(`${base}/probe/crash`);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 'internal_error', message: 'internal error' });
  });
});
