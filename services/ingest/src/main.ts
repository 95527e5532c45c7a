import 'reflect-metadata';
import { runService } from '@tierwise/common';
import { AppModule } from './app.module.js';
import { useAgentBodyParsers } from './controllers/protobuf-body.js';
import { INGEST_ENV } from './ingest.constants.js';

await runService(AppModule, { env: INGEST_ENV, port: 'TIERWISE_INGEST_PORT', bodyParser: false, configure: useAgentBodyParsers });
