import { ApiProperty } from '@nestjs/swagger';
import { ErrorCode } from './error-code.js';

/** The body of every 4xx/5xx answer. */
export class ErrorBodyDto {
  @ApiProperty({ enum: ErrorCode, enumName: 'ErrorCode', description: 'machine-readable error code' })
  code!: ErrorCode;

  @ApiProperty({ description: 'what went wrong, for a human', example: 'volume 9f2c... not found' })
  message!: string;

  @ApiProperty({ description: 'the x-request-id of the request, also in the response header' })
  request_id!: string;

  @ApiProperty({ format: 'uri', description: "where the code is explained (this service's GET /docs/errors#<code>)", example: 'http://127.0.0.1:8080/docs/errors#not_found' })
  doc_url!: string;
}
