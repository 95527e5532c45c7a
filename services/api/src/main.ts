import 'reflect-metadata';
import { runService } from '@tierwise/common';
import { applyProxyTrust } from './accounts/proxy-trust.js';
import { API_ENV } from './config/api.constants.js';
import { AppModule } from './app.module.js';
import { serveOpenApiDocument } from './openapi.js';

await runService(AppModule, {
  env: API_ENV,
  port: 'TIERWISE_API_PORT',
  configure: async (app) => {
    applyProxyTrust(app);
    await serveOpenApiDocument(app);
  },
});
