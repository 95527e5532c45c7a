import type { RecommendationEvent } from '../event.js';

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

/** The portal page of the event's volume: `<web>/volumes/<volume_id>`. */
export function volumeUrl(webUrl: string, event: RecommendationEvent): string {
  return new URL(`volumes/${encodeURIComponent(event.volume_id)}`, withSlash(webUrl)).toString();
}

/** The unsubscribe page of a channel: `<web>/settings/notifications?unsubscribe=<channel id>`. */
export function unsubscribeUrl(webUrl: string, channelId: string): string {
  const url = new URL('settings/notifications', withSlash(webUrl));
  url.searchParams.set('unsubscribe', channelId);
  return url.toString();
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** The tier media as people write it: "RAM" or "NVMe". */
function mediaName(media: RecommendationEvent['media']): string {
  return media === 'ram' ? 'RAM' : 'NVMe';
}

/** One line naming the change: "New recommendation for volume <id>: 1.5 GiB NVMe write-back". */
export function headline(event: RecommendationEvent): string {
  const verb = event.kind === 'recommendation.created' ? 'New recommendation' : 'Updated recommendation';
  return `${verb} for volume ${event.volume_id}: ${formatBytes(event.tier_bytes)} ${mediaName(event.media)} ${event.policy}`;
}

/** The facts every message shows, as label/value pairs in display order. */
export function facts(event: RecommendationEvent): Array<[label: string, value: string]> {
  return [
    ['Cache tier size', formatBytes(event.tier_bytes)],
    ['Media', mediaName(event.media)],
    ['Write policy', event.policy],
    ['Predicted hit ratio', formatRatio(event.predicted_hit_ratio)],
    ['Target hit ratio', formatRatio(event.target_hit_ratio)],
    ['Achievable hit ratio', formatRatio(event.achievable_hit_ratio)],
  ];
}
