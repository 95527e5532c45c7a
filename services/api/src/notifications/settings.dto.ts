import { ApiProperty } from '@nestjs/swagger';
import { ALERT_KINDS, CHANNEL_EVENT_KINDS, DELIVERY_STATUSES, DIGESTS, SEVERITIES } from '@tierwise/common';

/** A notification channel; Slack webhook URLs and bot tokens are never shown. */
export class ChannelDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: ['email', 'slack-webhook', 'slack-bot'] }) kind!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true, description: 'e-mail address (email channels only)' }) target!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Slack channel (slack-bot) or the last 4 characters of the webhook URL' })
  target_hint!: string | null;
  @ApiProperty({ description: 'whether a bot token is stored' }) has_secret!: boolean;
  @ApiProperty({ enum: DIGESTS }) digest!: string;
  @ApiProperty({ description: 'IANA time zone of digest periods' }) digest_timezone!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the recipient unsubscribed (no deliveries since)' })
  unsubscribed_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class RouteDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) channel_id!: string;
  @ApiProperty() channel_name!: string;
  @ApiProperty() channel_kind!: string;
  @ApiProperty({ enum: CHANNEL_EVENT_KINDS, isArray: true }) event_kinds!: string[];
  @ApiProperty({ enum: SEVERITIES }) min_severity!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class AlertRuleDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ enum: ALERT_KINDS }) kind!: string;
  @ApiProperty({ type: String, nullable: true }) volume_id!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'latency rules: ioLength bin upper bound, bytes' }) bin_upper_bytes!: number | null;
  @ApiProperty({ description: 'in the kind\'s unit: ratio, seconds, microseconds, bytes or errors' }) threshold!: number;
  @ApiProperty({ description: 'seconds' }) window_seconds!: number;
  @ApiProperty({ enum: SEVERITIES }) severity!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ description: 'incidents of this rule open now' }) open_incidents!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class MuteWindowDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null: every channel' }) channel_id!: string | null;
  @ApiProperty() timezone!: string;
  @ApiProperty({ type: [Number], description: 'ISO days of week, 1 = Monday' }) days!: number[];
  @ApiProperty({ example: '22:00' }) starts!: string;
  @ApiProperty({ example: '07:00' }) ends!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class ChannelListDto {
  @ApiProperty({ type: [ChannelDto] }) data!: ChannelDto[];
}
export class RouteListDto {
  @ApiProperty({ type: [RouteDto] }) data!: RouteDto[];
}
export class AlertRuleListDto {
  @ApiProperty({ type: [AlertRuleDto] }) data!: AlertRuleDto[];
}
export class MuteWindowListDto {
  @ApiProperty({ type: [MuteWindowDto] }) data!: MuteWindowDto[];
}

/** One delivery of one event to one channel (or an account e-mail to its address). */
export class DeliveryDto {
  @ApiProperty({ description: 'delivery id' }) id!: string;
  @ApiProperty({ description: 'outbox event id' }) event_id!: string;
  @ApiProperty({ enum: [...CHANNEL_EVENT_KINDS, 'account.email'] }) event_kind!: string;
  @ApiProperty({ enum: SEVERITIES }) severity!: string;
  @ApiProperty({ type: String, nullable: true, description: 'volume or host the event is about; the recipient of an account e-mail' })
  event_subject!: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null for account e-mails' }) channel_id!: string | null;
  @ApiProperty({ enum: ['email', 'slack-webhook', 'slack-bot', 'account-email'] }) channel_kind!: string;
  @ApiProperty({ type: String, nullable: true }) channel_name!: string | null;
  @ApiProperty({ enum: DELIVERY_STATUSES, description: 'pending (will be sent or retried), held (waits for the digest), sent, dead (dead letter)' })
  status!: string;
  @ApiProperty({ description: 'attempts so far' }) attempts!: number;
  @ApiProperty({ type: String, nullable: true, description: 'error of the last failed attempt' }) last_error!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'next attempt (pending only; a mute window moves it)' })
  next_attempt_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) sent_at!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto] }) data!: DeliveryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'pass as `cursor` for the next page; null on the last page' })
  next_cursor!: string | null;
}

/** One attempt of a delivery (delivery_attempts). */
export class DeliveryAttemptDto {
  @ApiProperty({ description: '1 for the first send' }) attempt!: number;
  @ApiProperty({ enum: ['sent', 'retry', 'dead'] }) outcome!: string;
  @ApiProperty({ type: String, nullable: true, description: "the receiver's or transport's error" }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) at!: string;
}

export class DeliveryAttemptListDto {
  @ApiProperty({ type: [DeliveryAttemptDto] }) data!: DeliveryAttemptDto[];
}
