import type { RecommendationEvent } from '../event.js';
import { facts, headline, volumeUrl } from './format.js';

/**
 * The Slack incoming-webhook body of one recommendation event, in Block Kit
 * (https://api.slack.com/reference/block-kit/blocks): a header, a section with the
 * explanation and the facts as fields (≤ 10 fields), and an actions block whose button opens
 * the volume in the portal. `text` is the fallback shown in notifications.
 *
 * @param event the validated event.
 * @param webUrl the portal's base URL (TIERWISE_WEB_URL).
 */
export function renderSlack(event: RecommendationEvent, webUrl: string): Record<string, unknown> {
  const title = headline(event);
  return {
    text: title,
    blocks: [
      // Header text is plain_text of at most 150 characters.
      { type: 'header', text: { type: 'plain_text', text: title.slice(0, 150), emoji: false } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: event.explanation.slice(0, 3000) || title },
        fields: facts(event).map(([label, value]) => ({ type: 'mrkdwn', text: `*${label}*\n${value}` })),
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open in Tierwise' },
            url: volumeUrl(webUrl, event),
            action_id: 'open_volume',
          },
        ],
      },
    ],
  };
}
