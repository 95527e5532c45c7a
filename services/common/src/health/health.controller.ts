import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { DatabaseService } from '../database/database.service.js';
import { ApiError } from '../errors/api-error.js';
import { ErrorBodyDto } from '../errors/error-body.dto.js';
import { ErrorCode } from '../errors/error-code.js';

export class HealthDto {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';
}

/** `GET /healthz`: 200 `{status:"ok"}` while PostgreSQL answers, else 503 with the error body. No auth. */
@ApiTags('health')
@Controller('healthz')
export class HealthController {
  constructor(private readonly database: DatabaseService) {}

  @Get()
  @ApiOkResponse({ type: HealthDto })
  @ApiServiceUnavailableResponse({ type: ErrorBodyDto })
  async health(): Promise<HealthDto> {
    try {
      await this.database.ping();
    } catch (error) {
      throw new ApiError(ErrorCode.Unavailable, 'database unreachable', { retryAfterSeconds: 5, cause: error });
    }
    return { status: 'ok' };
  }
}
