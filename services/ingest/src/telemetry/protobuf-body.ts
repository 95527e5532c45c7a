import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ApiError, ErrorCode } from '@tierwise/common';
import type { Request } from 'express';
import { MAX_BODY_BYTES, MAX_JSON_BODY_BYTES } from '../ingest.constants.js';

/** Media type of OTLP/HTTP protobuf and of the tierwise.v1 bodies. */
export const PROTOBUF_MEDIA_TYPE = 'application/x-protobuf';

/**
 * Registers the raw body parser of protobuf bodies: at most {@link MAX_BODY_BYTES} after
 * gzip/deflate/br Content-Encoding is undone, and of JSON bodies (at most {@link MAX_JSON_BODY_BYTES}) (a larger body is answered 413 before it is read
 * in full when Content-Length says so).
 */
export function useAgentBodyParsers(app: NestExpressApplication): void {
  app.useBodyParser('raw', { type: PROTOBUF_MEDIA_TYPE, limit: MAX_BODY_BYTES });
  // The applied reports of policy pull (POST /v1/agent/policies/applied) are JSON.
  app.useBodyParser('json', { limit: MAX_JSON_BODY_BYTES });
}

/**
 * The raw protobuf body of the request (an empty Buffer for an empty body).
 * @throws ApiError unsupported_media_type (415) unless Content-Type is application/x-protobuf.
 */
export const ProtobufBody = createParamDecorator((_: unknown, context: ExecutionContext): Buffer => {
  const request = context.switchToHttp().getRequest<Request>();
  const contentType = request.header('content-type') ?? '';
  if (!/^application\/x-protobuf\s*(;|$)/i.test(contentType)) {
    throw new ApiError(ErrorCode.UnsupportedMediaType, `Content-Type must be ${PROTOBUF_MEDIA_TYPE}, got ${contentType || 'none'}`);
  }
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
});
