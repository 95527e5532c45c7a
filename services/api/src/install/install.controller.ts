import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiError, type Env, ErrorCode, InjectEnv } from '@tierwise/common';
import type { Request, Response } from 'express';

/** Placeholders of edge-agent/packaging/install.sh the api fills in. */
const API_URL_PLACEHOLDER = '@TIERWISE_API_URL@';
const GATEWAY_URL_PLACEHOLDER = '@TIERWISE_GATEWAY_URL@';
/** What a URL written into the script may contain: no quote, `$`, backquote or backslash can reach the shell. */
const SAFE_URL = /^https?:\/\/[A-Za-z0-9.\-_:[\]%~/]+$/;
/** A file name of SHA256SUMS: `<64 hex>  <name>`. */
const SUMS_LINE = /^[0-9a-f]{64} [ *]([\w.+~-]+)$/;

type InstallEnv = Env<'TIERWISE_PUBLIC_API_URL' | 'TIERWISE_PUBLIC_INGEST_URL' | 'TIERWISE_AGENT_PACKAGES_DIR'>;

/**
 * The agent installer: GET /install.sh (the script of edge-agent/packaging/install.sh with this
 * api's URL and the agent gateway's (ingest's public URL) written in, docs/install.md) and GET /downloads/agent/{file} (the
 * packages of build-packages.sh: the .deb, the tarball and SHA256SUMS, which the script checks).
 * Only files listed in SHA256SUMS are served. Both come from TIERWISE_AGENT_PACKAGES_DIR; without
 * it they answer 404. Not part of the JSON API (outside /v1, no credential, not rate-limited).
 */
@ApiExcludeController()
@Controller()
export class InstallController {
  constructor(@InjectEnv() private readonly env: InstallEnv) {}

  @Get('install.sh')
  async script(@Req() request: Request, @Res() response: Response): Promise<void> {
    const text = await readFile(path.join(this.packagesDir(), 'install.sh'), 'utf8');
    const apiUrl = safeUrl(this.env.TIERWISE_PUBLIC_API_URL ?? `${request.protocol}://${request.get('host') ?? ''}`, 'the api URL');
    const gatewayUrl = this.env.TIERWISE_PUBLIC_INGEST_URL ? safeUrl(this.env.TIERWISE_PUBLIC_INGEST_URL, 'TIERWISE_PUBLIC_INGEST_URL') : '';
    response
      .type('text/x-shellscript; charset=utf-8')
      .setHeader('cache-control', 'no-store')
      .send(text.replaceAll(API_URL_PLACEHOLDER, apiUrl).replaceAll(GATEWAY_URL_PLACEHOLDER, gatewayUrl));
  }

  @Get('downloads/agent/:file')
  async download(@Param('file') file: string, @Res() response: Response): Promise<void> {
    const dir = this.packagesDir();
    const listed = file === 'SHA256SUMS' || (await readFile(path.join(dir, 'SHA256SUMS'), 'utf8').catch(() => ''))
      .split('\n')
      .some((line) => SUMS_LINE.exec(line.trim())?.[1] === file);
    if (!listed) {
      throw new ApiError(ErrorCode.NotFound, `no agent package named ${JSON.stringify(file)} (see /downloads/agent/SHA256SUMS)`);
    }
    await new Promise<void>((resolve, reject) =>
      response.sendFile(file, { root: dir, headers: { 'cache-control': 'no-cache' } }, (error) =>
        error ? reject(new ApiError(ErrorCode.NotFound, `agent package ${file} is listed but unreadable`)) : resolve(),
      ),
    );
  }

  /** @throws ApiError not_found when the api serves no packages. */
  private packagesDir(): string {
    const dir = this.env.TIERWISE_AGENT_PACKAGES_DIR;
    if (!dir) {
      throw new ApiError(ErrorCode.NotFound, 'this api serves no agent installer (TIERWISE_AGENT_PACKAGES_DIR is not set)');
    }
    return dir;
  }
}

/**
 * `url` without a trailing slash, when it is safe to write between double quotes of a shell script.
 * @throws ApiError bad_request naming `what` otherwise (e.g. a Host header with shell characters).
 */
function safeUrl(url: string, what: string): string {
  const trimmed = url.replace(/\/+$/, '');
  if (!SAFE_URL.test(trimmed)) {
    throw new ApiError(ErrorCode.BadRequest, `${what} ${JSON.stringify(trimmed)} cannot be written into the install script`);
  }
  return trimmed;
}
