import { ApiProperty } from '@nestjs/swagger';

/** The verdicts of a policy change's before/after reading (docs/workload.md "Storage-bound CPU"). */
export const POLICY_EFFECT_VERDICTS = ['work_done', 'latency_down', 'cpu_per_io_up', 'latency_up', 'no_change', 'insufficient_data'] as const;
export type PolicyEffectVerdict = (typeof POLICY_EFFECT_VERDICTS)[number];

/** One side of the change: the volume's 10 s windows with I/O in the span. */
export class PolicyEffectSideDto {
  @ApiProperty({ description: 'seconds of windows with I/O the side was measured over' }) seconds!: number;
  @ApiProperty({ description: 'front-end I/Os per second' }) iops!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'VM-observed median latency, µs (from the merged histogram)' }) latency_p50_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'VM-observed 99th percentile latency, µs' }) latency_p99_us!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "share of all the host's CPUs busy, 0..1; null without CPU time" }) host_busy!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "share of all the host's CPUs in iowait, 0..1" }) host_iowait!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "the consumer's CPU seconds per second; null when no consumer was named" }) consumer_cores!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: "CPU µs per front-end I/O: the consumer's, else the host's busy time" }) cpu_us_per_io!: number | null;
}

/** How a volume's latency and CPU moved across its latest applied policy change. */
export class PolicyEffectDto {
  @ApiProperty() volume_id!: string;
  @ApiProperty({ description: 'the policy version the agent reported applied' }) policy_version!: number;
  @ApiProperty({ format: 'date-time', description: 'when the agent reported it applied' }) applied_at!: string;
  @ApiProperty({ description: 'length of each compared span, seconds: the time since the change, at most 600, and as long before it' }) span_seconds!: number;
  @ApiProperty({ type: PolicyEffectSideDto, nullable: true, description: 'the span before the change; null with fewer than three windows of I/O' }) before!: PolicyEffectSideDto | null;
  @ApiProperty({ type: PolicyEffectSideDto, nullable: true, description: 'the span after the change; null with fewer than three windows of I/O' }) after!: PolicyEffectSideDto | null;
  @ApiProperty({ enum: POLICY_EFFECT_VERDICTS, description: 'work_done: latency down and CPU up with CPU per I/O steady (the CPU is work getting done); cpu_per_io_up: each I/O costs twice the CPU or more' })
  verdict!: PolicyEffectVerdict;
  @ApiProperty({ description: 'the reading in one sentence, with the figures' }) statement!: string;
}
