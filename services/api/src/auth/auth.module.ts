import { Global, Module } from '@nestjs/common';
import { ApiKeyLookupRepository } from './api-key-lookup.repository.js';
import { ApiKeyGuard } from './api-key.guard.js';

/** Global: the authentication guards `@Authenticated` uses, available to every feature module. */
@Global()
@Module({ providers: [ApiKeyGuard, ApiKeyLookupRepository], exports: [ApiKeyGuard, ApiKeyLookupRepository] })
export class AuthModule {}
