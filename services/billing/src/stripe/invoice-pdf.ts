import { INVOICE_PDF_UNAVAILABLE_MESSAGE } from '@sendwell/contracts';
import { OutboundError, upstreamUnavailable, type Logger, type OutboundHttp } from '@sendwell/server-kit';

/** Where Stripe serves invoice PDFs (`invoice_pdf` links); the configured API's origin is added (the stand-in serves them there). */
export const STRIPE_FILE_ORIGINS = ['https://files.stripe.com', 'https://pay.stripe.com'] as const;
/** Stripe's invoice PDFs are tens of kilobytes; anything this large is not one. */
export const INVOICE_PDF_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Fetches an invoice's PDF from its `invoice_pdf` link, which comes from Stripe's answer and is
 * still not trusted: only Stripe's own origins, through the guarded outbound client (no private
 * address, no redirect followed), at most `maxBytes`. Any refusal is a 503 with a message the user
 * can act on; the log names the host and the reason, never the link (it carries Stripe's access token).
 */
export class InvoicePdfSource {
  private readonly origins: ReadonlySet<string>;

  constructor(
    private readonly http: OutboundHttp,
    stripeApiOrigin: string,
    private readonly logger: Logger,
    private readonly maxBytes = INVOICE_PDF_MAX_BYTES,
  ) {
    this.origins = new Set([...STRIPE_FILE_ORIGINS, stripeApiOrigin]);
  }

  async fetch(invoiceId: string, link: string): Promise<Buffer> {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw this.refused(invoiceId, null, 'the link is not a URL');
    }
    if (!this.origins.has(url.origin)) throw this.refused(invoiceId, url.host, 'the link is not on a Stripe host');
    try {
      return (await this.http.download(url.href, this.maxBytes)).body;
    } catch (error) {
      if (error instanceof OutboundError) throw this.refused(invoiceId, url.host, error.message);
      throw error;
    }
  }

  private refused(invoice: string, host: string | null, reason: string) {
    this.logger.warn({ invoice, host, reason }, 'invoice PDF not fetched');
    return upstreamUnavailable(INVOICE_PDF_UNAVAILABLE_MESSAGE);
  }
}
