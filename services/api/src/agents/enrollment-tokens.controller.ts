import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { Idempotent } from '../http/idempotent.decorator.js';
import { Origin, type RequestOrigin } from '../http/request-origin.js';
import {
  type CreateEnrollmentToken,
  CreatedEnrollmentTokenDto,
  createEnrollmentTokenSchema,
  EnrollmentTokenDto,
  enrollmentTokenIdSchema,
  type EnrollmentTokenListQuery,
  enrollmentTokenListQuerySchema,
  EnrollmentTokenPageDto,
} from './enrollment-token.dto.js';
import { EnrollmentTokensService } from './enrollment-tokens.service.js';

@ApiTags('agents')
@Controller('v1/enrollment-tokens')
export class EnrollmentTokensController {
  constructor(private readonly tokens: EnrollmentTokensService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @Authenticated({ permission: Permission.AgentWrite })
  @Idempotent({ secretFields: ['token'] })
  @Endpoint({ summary: 'Create a single-use enrollment token for the installer (`install.sh --token`); the answer is the only time it is shown', created: CreatedEnrollmentTokenDto, errors: { 400: 'malformed name or lifetime' } })
  create(@Auth() auth: Principal, @Origin() origin: RequestOrigin, @Body({ schema: createEnrollmentTokenSchema }) body: CreateEnrollmentToken): Promise<CreatedEnrollmentTokenDto> {
    return this.tokens.create(auth, origin, body);
  }

  @Get()
  @Authenticated({ permission: Permission.EnrollmentTokenRead })
  @Endpoint({ summary: "The tenant's enrollment tokens, newest first, without the tokens themselves", ok: EnrollmentTokenPageDto, errors: { 400: 'malformed status, limit or cursor' } })
  list(@Auth() auth: Principal, @Query({ schema: enrollmentTokenListQuerySchema }) query: EnrollmentTokenListQuery): Promise<EnrollmentTokenPageDto> {
    return this.tokens.list(auth, query);
  }

  @Delete(':enrollmentTokenId')
  @Authenticated({ permission: Permission.AgentWrite })
  @Endpoint({ summary: 'Delete an enrollment token: it enrolls nothing from now on (agents it enrolled keep their credentials)', ok: EnrollmentTokenDto, errors: { 400: 'malformed enrollmentTokenId', 404: 'the tenant has no such token' } })
  delete(@Auth() auth: Principal, @Origin() origin: RequestOrigin, @Param('enrollmentTokenId', { schema: enrollmentTokenIdSchema }) id: string): Promise<EnrollmentTokenDto> {
    return this.tokens.delete(auth, origin, id);
  }
}
