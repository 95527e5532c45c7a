import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { openapiConvertVersion } from 'openapi-format';
import { SESSION_COOKIE } from './identity/session-cookies.js';
import { AGENT_SCHEME } from '@tierwise/common';
import { API_KEY_SCHEME, SESSION_SCHEME } from './auth/authenticated.decorator.js';
import { RATE_LIMIT_HEADERS } from './http/rate-limit.guard.js';

/** Where the api serves its OpenAPI document. */
export const OPENAPI_PATH = 'openapi.json';

const ERROR_BODY_REF = { $ref: '#/components/schemas/ErrorBodyDto' };
const seconds = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** The headers of every /v1 answer, and of a 429 (with Retry-After). */
const RATE_LIMIT_HEADER_DOCS = {
  [RATE_LIMIT_HEADERS.limit]: seconds('requests the credential may make per window'),
  [RATE_LIMIT_HEADERS.remaining]: seconds('requests left in the current window'),
  [RATE_LIMIT_HEADERS.reset]: seconds('seconds until the window resets'),
};

/**
 * Adds what every /v1 operation may answer but no controller declares: 429 `too_many_requests`
 * with Retry-After and the RateLimit-* headers (RateLimitGuard), and the RateLimit-* headers on
 * its 2xx answers.
 */
function addRateLimitResponses(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/')) {
      continue;
    }
    for (const operation of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!operation) {
        continue;
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (status.startsWith('2') && response && 'description' in response) {
          response.headers = { ...response.headers, ...RATE_LIMIT_HEADER_DOCS };
        }
      }
      operation.responses['429'] = {
        description: 'too_many_requests: the credential spent its rate limit',
        headers: { 'Retry-After': seconds('seconds to wait before retrying'), ...RATE_LIMIT_HEADER_DOCS },
        content: { 'application/json': { schema: ERROR_BODY_REF } },
      };
    }
  }
}

/**
 * A schema node as openapi-format leaves a nullable reference, `{type: ['object', 'null'], allOf: [{$ref}]}`,
 * or a nullable enum, `{type: ['string', 'null'], enum: [...]}`.
 */
interface SchemaNode {
  type?: string | string[];
  allOf?: unknown[];
  anyOf?: unknown[];
  enum?: unknown[];
  [keyword: string]: unknown;
}

/**
 * Rewrites what openapi-format makes of @nestjs/swagger's `nullable: true` where null would not
 * satisfy it: a nullable reference `{type: ['object', 'null'], allOf: [{$ref}]}` (allOf demands the
 * object) becomes the JSON Schema 2020-12 form `anyOf: [{$ref}, {type: 'null'}]`; a nullable enum
 * `{type: ['string', 'null'], enum: [...]}` gets null among its values.
 */
function fixNullables(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(fixNullables);
    return;
  }
  if (typeof node !== 'object' || node === null) {
    return;
  }
  const schema = node as SchemaNode;
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    if (schema.allOf?.length === 1) {
      schema.anyOf = [schema.allOf[0], { type: 'null' }];
      delete schema.allOf;
      delete schema.type;
    } else if (schema.enum && !schema.enum.includes(null)) {
      schema.enum = [...schema.enum, null];
    }
  }
  Object.values(schema).forEach(fixNullables);
}

/**
 * The OpenAPI 3.1 document of the api: generated from the controllers and DTOs (@nestjs/swagger
 * writes 3.0), with the rate-limit answers added, then converted to 3.1 by openapi-format
 * (nullable → type arrays, example → examples) and nullable references and enums fixed.
 */
export async function buildOpenApiDocument(app: INestApplication): Promise<OpenAPIObject> {
  const config = new DocumentBuilder()
    .setTitle('Tierwise API')
    .setDescription(
      'Fleet, hosts, volumes, working sets, miss ratio curves, tier recommendations, volume cache policies, agents and their enrollment tokens, API keys and the audit log of one tenant; portal accounts (sign-up, login, sessions, OIDC), organization members and invitations. ' +
        'Every error answer is {code, message, request_id, doc_url}; lists are cursor-paginated (pass next_cursor as cursor); ' +
        'POST accepts an Idempotency-Key; every credential is rate-limited (RateLimit-* headers).',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'a tenant API key (twk_...)' }, API_KEY_SCHEME)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'an agent credential (twa_..., from POST /v1/agents/enroll)' }, AGENT_SCHEME)
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', description: 'a portal session (POST /v1/auth/login); changes also need the x-csrf-token header' }, SESSION_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, config);
  addRateLimitResponses(document);
  const { data } = await openapiConvertVersion(document, { convertTo: '3.1' });
  fixNullables(data);
  return data as OpenAPIObject;
}

/** Serves the document at GET /openapi.json (no auth). */
export async function serveOpenApiDocument(app: INestApplication): Promise<void> {
  const document = await buildOpenApiDocument(app);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: OPENAPI_PATH, ui: false, raw: ['json'] });
}
