import { Injectable } from '@nestjs/common';
import { ApiError, checkEgressUrl, EgressError, type EgressPolicy, egressPolicy, type Env, ErrorCode, InjectEnv } from '@tierwise/common';

/**
 * The api's half of the egress guard (services/common/src/egress): a Slack webhook target a
 * tenant writes must be on TIERWISE_SLACK_WEBHOOK_ORIGIN (https://hooks.slack.com unless the
 * operator says otherwise), https, without user name or password. Its form only: the addresses
 * its host resolves to are checked by the notifier at every send, where DNS may have changed.
 */
@Injectable()
export class WebhookTargetCheck {
  private readonly policy: EgressPolicy;

  constructor(@InjectEnv() env: Env<'TIERWISE_SLACK_WEBHOOK_ORIGIN'>) {
    this.policy = egressPolicy(env.TIERWISE_SLACK_WEBHOOK_ORIGIN);
  }

  /** @throws ApiError bad_request `target is refused: <reason>` when the egress guard refuses `target`. */
  check(target: string): void {
    try {
      checkEgressUrl(target, this.policy);
    } catch (error) {
      if (error instanceof EgressError) throw new ApiError(ErrorCode.BadRequest, `target is refused: ${error.message} (${error.code})`);
      throw error;
    }
  }
}
