import type { NestExpressApplication } from '@nestjs/platform-express';
import { ACCOUNT_SETTINGS, type AccountSettings } from '../config/account-settings.js';

/**
 * Applies TIERWISE_TRUST_PROXY as Express's 'trust proxy' setting, so that behind a trusted
 * load balancer `request.ip` is the client's (login limits per IP) and `request.secure`
 * follows X-Forwarded-Proto (Secure cookies). Nothing is trusted when it is unset.
 */
export function applyProxyTrust(app: NestExpressApplication): void {
  const { trustProxy } = app.get<AccountSettings>(ACCOUNT_SETTINGS);
  if (trustProxy !== null) {
    app.set('trust proxy', trustProxy);
  }
}
