import { billingHistoryAnswer, type Invoice } from '@sendwell/contracts';
import { upstreamUnavailable, type Logger } from '@sendwell/server-kit';

/** The caller's own credentials, passed on as they came (a bearer token or the session cookie). */
export type SessionCredentials = Record<string, string>;

const TIMEOUT_MS = 30_000;

/**
 * The billing service, on its own port (BILLING_URL). Every call carries the user's session, so
 * billing acts on that user alone; `unavailableMessage` is what the user reads when it cannot.
 */
export class BillingClient {
  constructor(
    private readonly baseUrl: string,
    private readonly logger: Logger,
  ) {}

  /** Ends the subscription and deletes the Stripe customer; throws 503 with `unavailableMessage` when not done. */
  async closeAccount(credentials: SessionCredentials, unavailableMessage: string): Promise<void> {
    await this.call('DELETE', '/internal/billing-account', credentials, unavailableMessage);
  }

  /** The user's invoices (billing's own history call). */
  async invoices(credentials: SessionCredentials, unavailableMessage: string): Promise<Invoice[]> {
    const answer = await this.call('GET', '/api/billing/history', credentials, unavailableMessage);
    return billingHistoryAnswer.parse(answer);
  }

  private async call(method: string, path: string, credentials: SessionCredentials, unavailableMessage: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, { method, headers: credentials, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (err) {
      this.logger.warn({ err, path }, 'billing service unreachable');
      throw upstreamUnavailable(unavailableMessage, err);
    }
    if (!response.ok) {
      this.logger.warn({ path, status: response.status }, 'billing service refused');
      await response.body?.cancel();
      throw upstreamUnavailable(unavailableMessage);
    }
    return response.json();
  }
}
