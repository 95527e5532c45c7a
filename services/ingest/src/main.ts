import 'reflect-metadata';
import { runService } from '@tierwise/common';
import { AppModule } from './app.module.js';
import { INGEST_APP_OPTIONS, configureIngestHttp } from './ingest-http.js';
import { INGEST_ENV } from './ingest.constants.js';

await runService(AppModule, { env: INGEST_ENV, port: 'TIERWISE_INGEST_PORT', ...INGEST_APP_OPTIONS, configure: (app) => configureIngestHttp(app) });
