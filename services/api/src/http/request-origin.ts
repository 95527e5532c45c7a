import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/** Where a request came from, for the audit log. */
export interface RequestOrigin {
  /** The client's address as Express reports it (request.ip: the socket's peer, or the forwarded client behind a trusted proxy). */
  ip: string | null;
  /** The User-Agent header, at most 512 characters. */
  userAgent: string | null;
}

/** The origin of a request: client address and user agent. */
export function requestOrigin(request: Request): RequestOrigin {
  return { ip: request.ip ?? null, userAgent: request.header('user-agent')?.slice(0, 512) ?? null };
}

/** Parameter decorator: the {@link RequestOrigin} of the request. */
export const Origin = createParamDecorator((_: unknown, context: ExecutionContext): RequestOrigin => requestOrigin(context.switchToHttp().getRequest<Request>()));
