import { Global, Module } from '@nestjs/common';
import { ApiKeyRepository } from '../repositories/api-key.repository.js';
import { ApiKeyGuard } from './api-key.guard.js';

/** Global: the authentication guards `@Authenticated` uses, available to every feature module. */
@Global()
@Module({ providers: [ApiKeyGuard, ApiKeyRepository], exports: [ApiKeyGuard, ApiKeyRepository] })
export class AuthModule {}
