import { Global, Module } from '@nestjs/common';
import { DatabaseService } from './database.service.js';

/** Global module providing {@link DatabaseService}; needs `TIERWISE_PG_APP_URL` in the EnvModule. */
@Global()
@Module({ providers: [DatabaseService], exports: [DatabaseService] })
export class DatabaseModule {}
