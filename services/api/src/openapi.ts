import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { SESSION_COOKIE } from './accounts/session-cookies.js';
import { API_KEY_SCHEME, SESSION_SCHEME } from './auth/authenticated.decorator.js';

/** Where the api serves its OpenAPI document. */
export const OPENAPI_PATH = 'openapi.json';

/** The OpenAPI 3 document of the api, generated from the controllers and DTOs. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Tierwise API')
    .setDescription('Fleet, volumes, working sets, miss ratio curves and tier recommendations of one tenant; portal accounts, organizations and members.')
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'a tenant API key' }, API_KEY_SCHEME)
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', description: 'a portal session (POST /v1/auth/login); changes also need the x-csrf-token header' }, SESSION_SCHEME)
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the document at GET /openapi.json (no auth). */
export function serveOpenApiDocument(app: INestApplication): void {
  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: OPENAPI_PATH, ui: false, raw: ['json'] });
}
