import { Controller, Get, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../errors/api-error.js';
import { ErrorCode } from '../errors/error-code.js';
import { createServiceApp } from './bootstrap.js';
import type { RequestLogMode } from './request-log.middleware.js';

@Controller('probe')
class ProbeController {
  @Get('fine')
  fine(): { ok: true } {
    return { ok: true };
  }

  @Get('missing')
  missing(): never {
    throw new ApiError(ErrorCode.NotFound, 'volume abc not found');
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

/** The request log lines (JSON on stdout) of one GET to each path, in the given mode. */
async function requestLines(mode: RequestLogMode, paths: string[]): Promise<{ path: string; status: number; request_id: string }[]> {
  const app: NestExpressApplication = await createServiceApp(ProbeModule, { logLevels: ['log'], requestLog: mode });
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  const written: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  try {
    for (const path of paths) {
      await (await fetch(`${base}${path}`, { headers: { 'x-request-id': `req-${path.split('/').pop()}` } })).arrayBuffer();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    write.mockRestore();
    await app.close();
  }
  return written
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes('"request"'))
    .map((line) => JSON.parse(line) as { message: { path: string; status: number; request_id: string } })
    .map((line) => line.message);
}

describe('request log', () => {
  it('logs every finished request with its status and request id by default', async () => {
    const lines = await requestLines('every', ['/probe/fine', '/probe/missing']);
    expect(lines).toEqual([
      expect.objectContaining({ path: '/probe/fine', status: 200, request_id: 'req-fine' }),
      expect.objectContaining({ path: '/probe/missing', status: 404, request_id: 'req-missing' }),
    ]);
  });

  it('logs only the refused and slow requests in the unusual mode', async () => {
    const lines = await requestLines('unusual', ['/probe/fine', '/probe/missing', '/probe/fine']);
    expect(lines).toEqual([expect.objectContaining({ path: '/probe/missing', status: 404 })]);
  });
});
