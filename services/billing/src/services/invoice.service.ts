import {
  BILLING_HISTORY_MONTHS,
  INVOICE_NOT_FOUND_MESSAGE,
  invoiceFileName,
  type BillingHistoryAnswer,
} from '@sendwell/contracts';
import type { Database } from '@sendwell/db';
import { notFound } from '@sendwell/server-kit';
import type Stripe from 'stripe';
import { BillingUserRepository } from '../repositories/billing-user.repository.js';
import { retrieveOr404, withStripe } from '../stripe/errors.js';
import type { InvoicePdfSource } from '../stripe/invoice-pdf.js';

/** The user's receipts: the history list and each invoice's PDF, only ever the user's own. */
export class InvoiceService {
  constructor(
    private readonly db: Database,
    private readonly stripe: Stripe,
    private readonly pdfs: InvoicePdfSource,
  ) {}

  private async customerOf(userId: number): Promise<string | null> {
    return (await new BillingUserRepository(this.db).findById(userId))?.stripeCustomerId ?? null;
  }

  /** GET /api/billing/history: invoices of the last 18 months, newest first; none without a customer. */
  async history(userId: number): Promise<BillingHistoryAnswer> {
    const customer = await this.customerOf(userId);
    if (!customer) return [];
    const since = new Date();
    since.setMonth(since.getMonth() - BILLING_HISTORY_MONTHS);
    const from = Math.floor(since.getTime() / 1000);
    const invoices = await withStripe(async () => {
      const all: Stripe.Invoice[] = [];
      for await (const invoice of this.stripe.invoices.list({ customer, created: { gte: from }, limit: 100 })) {
        all.push(invoice);
        if (all.length >= 500) break;
      }
      return all;
    });
    return invoices
      .filter((i) => i.created >= from && i.status !== 'draft')
      .sort((a, b) => b.created - a.created)
      .map((i) => ({
        id: i.id ?? '',
        number: i.number ?? null,
        status: i.status ?? null,
        amount_paid: i.amount_paid,
        currency: i.currency,
        created: i.created,
        period_start: i.period_start,
        period_end: i.period_end,
        description: i.description ?? i.lines?.data[0]?.description ?? 'Sendwell subscription',
        invoice_pdf: i.invoice_pdf ?? null,
        hosted_invoice_url: i.hosted_invoice_url ?? null,
      }));
  }

  /**
   * GET /api/billing/invoices/{id}/pdf. The browser cannot fetch Stripe's PDF link itself (the page's
   * CSP and Stripe's CORS forbid it), so the server does, for the invoice's owner only, and only from
   * Stripe (`InvoicePdfSource`).
   */
  async pdf(userId: number, invoiceId: string): Promise<{ fileName: string; pdf: Buffer }> {
    const customer = await this.customerOf(userId);
    if (!customer) throw notFound(INVOICE_NOT_FOUND_MESSAGE);
    const invoice = await retrieveOr404(() => this.stripe.invoices.retrieve(invoiceId), INVOICE_NOT_FOUND_MESSAGE);
    const owner = typeof invoice.customer === 'string' ? invoice.customer : (invoice.customer?.id ?? null);
    if (owner !== customer || !invoice.invoice_pdf) throw notFound(INVOICE_NOT_FOUND_MESSAGE);

    const pdf = await this.pdfs.fetch(invoice.id ?? invoiceId, invoice.invoice_pdf);
    return { fileName: invoiceFileName({ number: invoice.number ?? null, id: invoice.id ?? invoiceId }), pdf };
  }
}
