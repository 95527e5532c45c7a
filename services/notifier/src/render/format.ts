import type { AlertEvent, ChannelEvent, RecommendationEvent } from '../event.js';

const IEC_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** `bytes` in IEC binary units with up to one decimal: 1610612736 → "1.5 GiB". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < IEC_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${IEC_UNITS[unit]}`;
}

/** A ratio in [0, 1] as a percentage with one decimal: 0.9234 → "92.3 %". */
export function formatRatio(ratio: number): string {
  return `${(ratio * 100).toFixed(1)} %`;
}

/** A duration in microseconds, in µs below 1 ms, else ms with one decimal: 12345 → "12.3 ms". */
export function formatMicroseconds(us: number): string {
  return us < 1000 ? `${Math.round(us)} µs` : `${(us / 1000).toFixed(1)} ms`;
}

/** A duration in seconds as whole minutes from 2 min on: 900 → "15 min", 45 → "45 s". */
export function formatSeconds(seconds: number): string {
  return seconds >= 120 ? `${Math.floor(seconds / 60)} min` : `${Math.round(seconds)} s`;
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** `<base>/<path>` with the path's segments URL-encoded by the caller. */
export function joinUrl(base: string, path: string): string {
  return new URL(path, withSlash(base)).toString();
}

/** The portal page of a volume: `<web>/volumes/<volume_id>`. */
export function volumeUrl(webUrl: string, volumeId: string): string {
  return joinUrl(webUrl, `volumes/${encodeURIComponent(volumeId)}`);
}

/** A link of a message: a label and where it goes; `id` is the Slack button's action_id. */
export interface NoticeLink {
  id: string;
  label: string;
  url: string;
}

/**
 * What any channel shows of one event: a one-line title, a paragraph, facts as
 * label/value pairs in display order, and links (the first opens the event in the portal).
 */
export interface Notice {
  title: string;
  summary: string;
  facts: Array<[label: string, value: string]>;
  links: NoticeLink[];
}

/** The tier media as people write it: "RAM" or "NVMe". */
function mediaName(media: RecommendationEvent['media']): string {
  return media === 'ram' ? 'RAM' : 'NVMe';
}

function recommendationNotice(event: RecommendationEvent, webUrl: string): Notice {
  const verb = event.kind === 'recommendation.created' ? 'New recommendation' : 'Updated recommendation';
  return {
    title: `${verb} for volume ${event.volume_id}: ${formatBytes(event.tier_bytes)} ${mediaName(event.media)} ${event.policy}`,
    summary: event.explanation,
    facts: [
      ['Cache tier size', formatBytes(event.tier_bytes)],
      ['Media', mediaName(event.media)],
      ['Write policy', event.policy],
      ['Predicted hit ratio', formatRatio(event.predicted_hit_ratio)],
      ['Target hit ratio', formatRatio(event.target_hit_ratio)],
      ['Achievable hit ratio', formatRatio(event.achievable_hit_ratio)],
    ],
    links: [{ id: 'open_recommendation', label: 'Open in Tierwise', url: volumeUrl(webUrl, event.volume_id) }],
  };
}

/** `n` things in words: (1, 'error') → "1 error", (3, 'error') → "3 errors". */
function countOf(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** `text` with its first letter in upper case. */
function capitalized(text: string): string {
  return `${text.slice(0, 1).toUpperCase()}${text.slice(1)}`;
}

/**
 * A device_errors alert's counts and what they mean, from its details: "3 destage errors and
 * 1 tier error in the last 5 min" and the consequence of each kind of error counted.
 */
function deviceErrors(event: AlertEvent): { counts: string; meaning: string } {
  const details = event.details;
  const counted = details
    ? ([
        [details.destage_errors, 'destage error', 'the datastore refused destage writes (write-back keeps the data and retries)'],
        [details.tier_errors, 'tier error', 'the cache tier device failed and was disabled'],
      ] as const).filter(([n]) => n > 0)
    : [];
  if (!details || counted.length === 0) return { counts: countOf(event.value, 'device error'), meaning: '' };
  return {
    counts: `${counted.map(([n, noun]) => countOf(n, noun)).join(' and ')} in the last ${formatSeconds(details.window_seconds)}`,
    meaning: `${capitalized(counted.map(([, , meaning]) => meaning).join('; '))}.`,
  };
}

/** The alert's condition in words, with value and threshold in the rule's unit, and what it means (or ''). */
function alertCondition(event: AlertEvent): { title: string; value: string; threshold: string; meaning?: string } {
  const volume = `volume ${event.subject}`;
  switch (event.rule_kind) {
    case 'hit_ratio_drop':
      return { title: `Hit ratio of ${volume} dropped`, value: `${(event.value * 100).toFixed(1)} points`, threshold: `${(event.threshold * 100).toFixed(1)} points` };
    case 'agent_silent':
      return { title: `Host ${event.subject} has sent no telemetry`, value: formatSeconds(event.value), threshold: formatSeconds(event.threshold) };
    case 'latency':
      return {
        title: `Latency of ${formatBytes(event.bin_upper_bytes ?? 0)} I/Os on ${volume} above threshold`,
        value: formatMicroseconds(event.value),
        threshold: formatMicroseconds(event.threshold),
      };
    case 'destage_backlog':
      return { title: `Destage backlog of ${volume} above threshold`, value: formatBytes(event.value), threshold: formatBytes(event.threshold) };
    case 'write_back_fallback':
      return { title: `${capitalized(volume)} fell back from write-back to write-through`, value: 'write-through', threshold: 'write-back' };
    case 'device_errors': {
      const errors = deviceErrors(event);
      return { title: `${capitalized(volume)}: ${errors.counts}`, value: countOf(event.value, 'error'), threshold: countOf(event.threshold, 'error'), meaning: errors.meaning };
    }
  }
}

function alertNotice(event: AlertEvent, webUrl: string): Notice {
  const condition = alertCondition(event);
  const resolved = event.kind === 'alert.resolved';
  const link = event.rule_kind === 'agent_silent' ? joinUrl(webUrl, '') : volumeUrl(webUrl, event.subject);
  return {
    title: `${resolved ? 'Resolved' : event.severity === 'critical' ? 'Critical' : 'Warning'}: ${condition.title}`,
    summary: [
      resolved
        ? `Alert rule "${event.rule_name}" no longer holds (opened ${event.opened_at}, resolved ${event.resolved_at}).`
        : `Alert rule "${event.rule_name}" fired at ${event.opened_at}.`,
      ...(condition.meaning ? [condition.meaning] : []),
    ].join(' '),
    facts: [
      ['Rule', event.rule_name],
      ['Severity', event.severity],
      [resolved ? 'Value when opened' : 'Value', condition.value],
      ['Threshold', condition.threshold],
    ],
    links: [{ id: 'open_alert_subject', label: event.rule_kind === 'agent_silent' ? 'Open the fleet' : 'Open the volume', url: link }],
  };
}

/**
 * What channels show of an event.
 *
 * @param event a validated recommendation or alert event.
 * @param webUrl the portal's base URL (TIERWISE_WEB_URL), for the links.
 */
export function noticeOf(event: ChannelEvent, webUrl: string): Notice {
  return 'rule_kind' in event ? alertNotice(event, webUrl) : recommendationNotice(event, webUrl);
}
