import { Body, Controller, Get, Headers, HttpCode, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '@tierwise/common';
import { type AppliedReport, appliedReportSchema, type PolicyDocument, type PolicyQuery, policyQuerySchema, preferredWaitSeconds } from './policy-document.js';
import type { IgnoredReport } from './policy.repository.js';
import { PolicyPullService } from './policy-pull.service.js';

/** The agents' side of volume policies (docs/policies.md). */
@Controller('v1/agent/policies')
@AgentAuth()
export class PolicyPullController {
  constructor(private readonly pull: PolicyPullService) {}

  /**
   * `GET /v1/agent/policies?volumes=<id>,<id>`: 200 {@link PolicyDocument} with its ETag.
   * With `If-None-Match: <etag>` of the current document: 304 at once, or, with
   * `Prefer: wait=N` (N <= 25 s), after waiting up to N seconds for a change (a long-poll;
   * 200 as soon as a policy of the tenant changes).
   */
  @Get()
  async get(
    @CurrentAgent() agent: AgentPrincipal,
    @Query({ schema: policyQuerySchema }) query: PolicyQuery,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<PolicyDocument | undefined> {
    const hangUp = new AbortController();
    response.once('close', () => hangUp.abort());
    const waitSeconds = ifNoneMatch ? preferredWaitSeconds(prefer) : 0;
    const document = await this.pull.pull(agent, query.volumes, ifNoneMatch, waitSeconds * 1000, hangUp.signal);
    response.setHeader('Cache-Control', 'no-store');
    if (waitSeconds > 0) response.setHeader('Preference-Applied', `wait=${waitSeconds}`);
    if (!document) {
      response.status(304);
      return undefined;
    }
    response.setHeader('ETag', document.etag);
    return document;
  }

  /** `POST /v1/agent/policies/applied`: 200 `{recorded, ignored: [{volume_id, reason}]}`. */
  @Post('applied')
  @HttpCode(200)
  async applied(@CurrentAgent() agent: AgentPrincipal, @Body({ schema: appliedReportSchema }) body: AppliedReport): Promise<{ recorded: number; ignored: IgnoredReport[] }> {
    const ignored = await this.pull.applied(agent, body);
    return { recorded: body.reports.length - ignored.length, ignored };
  }
}
