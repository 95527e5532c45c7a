import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { PageDto, pageQueryShape } from '../http/pagination.js';
import { timestampSchema } from '../http/timestamp.js';

/** A host with its volume count (HostRepository). */
export interface HostRow {
  host_id: string;
  display_name: string | null;
  first_seen: Date;
  last_seen: Date;
  volumes: number;
}

/** Query of GET /v1/hosts: in host id order. */
export const hostListQuerySchema = z.object({
  ...pageQueryShape,
  seen_since: timestampSchema.optional().describe('only hosts that sent data at or after this time (RFC 3339)'),
});
export type HostListQuery = z.output<typeof hostListQuerySchema>;

export class HostDto {
  @ApiProperty({ description: 'pseudonymous host id (hex)' }) host_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'host name, only when the host opted in' }) display_name!: string | null;
  @ApiProperty({ format: 'date-time', description: 'when ingest first received data of the host' }) first_seen!: string;
  @ApiProperty({ format: 'date-time', description: 'when ingest last received data of the host' }) last_seen!: string;
  @ApiProperty({ description: 'volumes last seen on the host' }) volumes!: number;
}

export class HostPageDto extends PageDto(HostDto) {}

export function mapHost(row: HostRow): HostDto {
  return {
    host_id: row.host_id,
    display_name: row.display_name,
    first_seen: row.first_seen.toISOString(),
    last_seen: row.last_seen.toISOString(),
    volumes: row.volumes,
  };
}
