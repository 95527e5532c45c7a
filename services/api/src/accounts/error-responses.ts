import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';

/** Documents error answers `{code, message, request_id}` of a route: status -> when it happens. */
export const ApiErrors = (errors: Readonly<Record<number, string>>): MethodDecorator =>
  applyDecorators(...Object.entries(errors).map(([status, description]) => ApiResponse({ status: Number(status), type: ErrorBodyDto, description })));
