import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { ErrorBodyDto } from '../errors/error-body.dto.js';

/** The error answers a route documents, each with the services' one error body. */
const ERROR_RESPONSES = {
  400: ApiBadRequestResponse,
  401: ApiUnauthorizedResponse,
  403: ApiForbiddenResponse,
  404: ApiNotFoundResponse,
  409: ApiConflictResponse,
  410: ApiGoneResponse,
  415: ApiUnsupportedMediaTypeResponse,
  422: ApiUnprocessableEntityResponse,
  429: ApiTooManyRequestsResponse,
  503: ApiServiceUnavailableResponse,
} as const;

/** What the OpenAPI document says of a route, in one place. */
export interface EndpointDoc {
  summary: string;
  /** More than the summary says (CommonMark). */
  description?: string;
  /** Kept for old clients only (the description says what replaces it). */
  deprecated?: boolean;
  /** The 200 answer's body. */
  ok?: Type<unknown>;
  /** The 201 answer's body. */
  created?: Type<unknown>;
  /** When each documented error status is answered ({@link ErrorBodyDto} bodies). */
  errors?: Partial<Record<keyof typeof ERROR_RESPONSES, string>>;
}

/**
 * The OpenAPI description of a route: its summary, its success body and the error answers with
 * the reason of each (`@Endpoint({ summary, ok: VolumeDto, errors: { 404: 'no such volume' } })`).
 */
export function Endpoint(doc: EndpointDoc): MethodDecorator {
  const errors = Object.entries(doc.errors ?? {}) as [`${keyof typeof ERROR_RESPONSES}`, string][];
  return applyDecorators(
    ApiOperation({ summary: doc.summary, ...(doc.description ? { description: doc.description } : {}), ...(doc.deprecated ? { deprecated: true } : {}) }),
    ...(doc.ok ? [ApiOkResponse({ type: doc.ok })] : []),
    ...(doc.created ? [ApiCreatedResponse({ type: doc.created })] : []),
    ...errors.map(([status, description]) => ERROR_RESPONSES[Number(status) as keyof typeof ERROR_RESPONSES]({ type: ErrorBodyDto, description })),
  );
}
