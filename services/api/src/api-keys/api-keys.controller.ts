import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { Idempotent } from '../http/idempotent.decorator.js';
import { Origin, type RequestOrigin } from '../http/request-origin.js';
import { type ApiKeyListQuery, apiKeyIdSchema, apiKeyListQuerySchema, ApiKeyDto, ApiKeyPageDto, type CreateApiKey, CreatedApiKeyDto, createApiKeySchema } from './api-key.dto.js';
import { ApiKeysService } from './api-keys.service.js';

@ApiTags('api-keys')
@Controller('v1/api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post()
  @HttpCode(HttpStatus.CREATED)
  @Authenticated({ permission: Permission.ApiKeyWrite })
  @Idempotent({ secretFields: ['key'] })
  @Endpoint({ summary: 'Create an API key; the answer is the only time its secret is shown (a retry with the same Idempotency-Key answers 409)', created: CreatedApiKeyDto, errors: { 400: 'malformed name or scope' } })
  create(@Auth() auth: Principal, @Origin() origin: RequestOrigin, @Body({ schema: createApiKeySchema }) body: CreateApiKey): Promise<CreatedApiKeyDto> {
    return this.keys.create(auth, origin, body);
  }

  @Get()
  @Authenticated({ permission: Permission.ApiKeyRead })
  @Endpoint({ summary: "The tenant's API keys, newest first, without their secrets", ok: ApiKeyPageDto, errors: { 400: 'malformed status, limit or cursor' } })
  list(@Auth() auth: Principal, @Query({ schema: apiKeyListQuerySchema }) query: ApiKeyListQuery): Promise<ApiKeyPageDto> {
    return this.keys.list(auth, query);
  }

  @Delete(':apiKeyId')
  @Authenticated({ permission: Permission.ApiKeyWrite })
  @Endpoint({ summary: 'Revoke an API key: it is refused from the next request on', ok: ApiKeyDto, errors: { 400: 'malformed apiKeyId', 404: 'the tenant has no such key', 409: 'the key is revoked already' } })
  revoke(@Auth() auth: Principal, @Origin() origin: RequestOrigin, @Param('apiKeyId', { schema: apiKeyIdSchema }) id: string): Promise<ApiKeyDto> {
    return this.keys.revoke(auth, origin, id);
  }
}
