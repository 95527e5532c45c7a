import { Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ErrorBodyDto } from '@tierwise/common';
import { unsubscribeQuerySchema } from './settings.schemas.js';
import { UnsubscribeService } from './unsubscribe.service.js';

const HTML = { 'text/html': { schema: { type: 'string' } } };

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`;
}

/**
 * The links of notification e-mails, without an API key (the signed token is the credential):
 * GET shows a confirmation page (mail scanners prefetch links, so GET never unsubscribes,
 * RFC 8058 §3.2); POST unsubscribes, whether from that page's form or as the one-click
 * `List-Unsubscribe=One-Click` POST a mail client sends (RFC 8058 §3.1).
 */
@ApiTags('notifications')
@Controller('v1/notifications/unsubscribe')
export class UnsubscribeController {
  constructor(private readonly unsubscribes: UnsubscribeService) {}

  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @ApiProduces('text/html')
  @ApiOperation({ operationId: 'showUnsubscribe', summary: 'Confirmation page of an e-mail unsubscribe link (changes nothing)' })
  @ApiOkResponse({ description: 'an HTML page with a form that POSTs the unsubscribe', content: HTML })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'missing, malformed or forged token' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'the channel no longer exists' })
  async show(@Query({ schema: unsubscribeQuerySchema }) query: { token: string }): Promise<string> {
    const subscription = await this.unsubscribes.find(query.token);
    if (subscription.unsubscribedAt) return page('Unsubscribed', `<p>${subscription.masked} receives no Tierwise notifications.</p>`);
    const action = `?token=${encodeURIComponent(query.token)}`;
    return page(
      'Unsubscribe from Tierwise notifications?',
      `<p>${subscription.masked} will receive no further Tierwise notifications.</p>` +
        `<form method="post" action="${action}"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
    );
  }

  @Post()
  @HttpCode(200)
  @Header('content-type', 'text/html; charset=utf-8')
  @ApiProduces('text/html')
  @ApiOperation({ operationId: 'unsubscribe', summary: 'One-click unsubscribe (RFC 8058): the channel of the token gets no further deliveries' })
  @ApiOkResponse({ description: 'an HTML confirmation', content: HTML })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'missing, malformed or forged token' })
  @ApiNotFoundResponse({ type: ErrorBodyDto, description: 'the channel no longer exists' })
  async unsubscribe(@Query({ schema: unsubscribeQuerySchema }) query: { token: string }): Promise<string> {
    const subscription = await this.unsubscribes.unsubscribe(query.token);
    return page('Unsubscribed', `<p>${subscription.masked} receives no further Tierwise notifications.</p>`);
  }
}
