import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Endpoint } from '@tierwise/common';
import { Auth, Authenticated } from '../auth/authenticated.decorator.js';
import { Permission } from '../identity/permission.js';
import type { Principal } from '../identity/principal.js';
import { type AuditListQuery, auditListQuerySchema, AuditPageDto } from './audit.dto.js';
import { AuditService } from './audit.service.js';

@ApiTags('audit')
@Controller('v1/audit-log')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Authenticated({ permission: Permission.AuditRead })
  @Endpoint({ summary: "The tenant's audit log, newest first (admins and read-write keys)", ok: AuditPageDto, errors: { 400: 'malformed filter, limit or cursor' } })
  list(@Auth() auth: Principal, @Query({ schema: auditListQuerySchema }) query: AuditListQuery): Promise<AuditPageDto> {
    return this.audit.list(auth, query);
  }
}
