import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiConflictResponse, ApiHeader, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';

/** Request header naming a retry-safe request (draft-ietf-httpapi-idempotency-key-header). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Response header set when an answer is a stored one, replayed for a retry. */
export const IDEMPOTENT_REPLAY_HEADER = 'Idempotent-Replayed';
/** Metadata key set by {@link Idempotent}. */
export const IDEMPOTENT_METADATA = 'tierwise:idempotent';

/** How a route's answers are kept for replay. */
export interface IdempotentOptions {
  /**
   * Fields of the answer that are secrets shown once (an API key): never stored, so a retry of
   * a request that succeeded is answered 409 naming what it created instead of a replay.
   */
  secretFields?: readonly string[];
}

/** Marks a POST route as accepting an Idempotency-Key (IdempotencyInterceptor) and documents it. */
export const Idempotent = (options: IdempotentOptions = {}): MethodDecorator =>
  applyDecorators(
    SetMetadata(IDEMPOTENT_METADATA, options),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description: 'makes the request safe to retry: the same key with the same body within 24 h returns the first answer',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
    }),
    ApiConflictResponse({ type: ErrorBodyDto, description: 'idempotency_key_in_use: a request with this key is still running; or conflict with the current state' }),
    ApiUnprocessableEntityResponse({ type: ErrorBodyDto, description: 'idempotency_key_reused: the key was used with another method, path or body' }),
  );
