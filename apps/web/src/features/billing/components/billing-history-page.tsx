import { invoiceFileName, type Invoice } from '@sendwell/contracts';
import { Download, ExternalLink, Receipt } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { toast } from '@/components/ui/toast-store';
import { cn } from '@/lib/utils';
import { downloadInvoicePdf, useBillingHistory } from '../api/billing';
import { ScrollX } from '@/components/ui/scroll-x';

const day = new Intl.DateTimeFormat('en-US', { month: 'short', day: '2-digit', year: 'numeric' });
/** Stripe's minor units shown divided by 100, in the invoice's own currency (part 2 §9). */
const money = (minor: number, currency: string) => new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);

/** Paid green, open blue, draft grey, void red, anything else grey (part 2 §4). */
const statusClass: Record<string, string> = {
  paid: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200',
  open: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200',
  void: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
};
const otherStatusClass = 'bg-muted text-muted-foreground';

/** Totals per currency, so a currency never adds into another. */
function totalsPaid(invoices: Invoice[]): string {
  const byCurrency = new Map<string, number>();
  for (const i of invoices) if (i.status === 'paid') byCurrency.set(i.currency, (byCurrency.get(i.currency) ?? 0) + i.amount_paid);
  if (byCurrency.size === 0) return money(0, invoices[0]?.currency ?? 'aud');
  return [...byCurrency].map(([currency, minor]) => money(minor, currency)).join(' + ');
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Billing history (part 2 §2.13): the last 18 months of invoices, a summary, View and Download per row. */
export function BillingHistoryPage() {
  const history = useBillingHistory();
  const [downloading, setDownloading] = useState<ReadonlySet<string>>(new Set());

  const download = async (invoice: Invoice) => {
    if (downloading.has(invoice.id)) return;
    setDownloading((s) => new Set(s).add(invoice.id));
    const label = invoice.number ?? invoice.id;
    try {
      toast({ title: 'Download started', description: `Invoice ${label} is downloading.` });
      save(await downloadInvoicePdf(invoice.id), invoiceFileName(invoice));
    } catch {
      toast({ title: 'Download failed', description: 'Unable to download the invoice. Please try again.', variant: 'destructive' });
    } finally {
      setDownloading((s) => {
        const next = new Set(s);
        next.delete(invoice.id);
        return next;
      });
    }
  };

  if (history.isPending) return <Skeleton className="h-64 w-full rounded-xl" data-testid="billing-loading" />;
  if (history.isError) {
    return (
      <Alert variant="destructive" title="Unable to load billing history">
        There was an error loading your billing information. Please try again later.
      </Alert>
    );
  }
  const invoices = history.data;
  if (invoices.length === 0) {
    return (
      <Card>
        <CardContent className="flex flex-col items-center gap-2 p-10 text-center" data-testid="billing-empty">
          <Receipt className="h-10 w-10 text-muted-foreground" aria-hidden="true" />
          <h2 className="text-lg font-semibold">No invoices yet</h2>
          <p className="text-sm text-muted-foreground">Your receipts appear here after your first payment.</p>
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3" data-testid="billing-summary">
        {[
          ['Total invoices', String(invoices.length)],
          ['Paid invoices', String(invoices.filter((i) => i.status === 'paid').length)],
          ['Total paid', totalsPaid(invoices)],
        ].map(([label, value]) => (
          <Card key={label}>
            <CardHeader className="pb-2">
              <CardTitle as="h2" className="text-sm font-medium text-muted-foreground">
                {label}
              </CardTitle>
            </CardHeader>
            <CardContent className="text-2xl font-bold">{value}</CardContent>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader>
          <CardTitle as="h2" className="text-lg">
            Invoices of the last 18 months
          </CardTitle>
        </CardHeader>
        <CardContent className="p-0">
          <ScrollX label="Invoices">
            <table className="w-full min-w-[640px] text-sm">
              <thead>
                <tr className="border-y bg-muted/50 text-left">
                  <th scope="col" className="p-3">Date</th>
                  <th scope="col" className="p-3">Invoice</th>
                  <th scope="col" className="p-3">Amount</th>
                  <th scope="col" className="p-3">Status</th>
                  <th scope="col" className="p-3 text-right">Actions</th>
                </tr>
              </thead>
              <tbody>
                {invoices.map((invoice) => (
                  <tr key={invoice.id} className="border-b last:border-0" data-testid="invoice-row">
                    <td className="p-3">{day.format(new Date(invoice.created * 1000))}</td>
                    <td className="p-3">
                      <div className="font-medium">{invoice.number ?? invoice.id}</div>
                      <div className="text-xs text-muted-foreground">{invoice.description}</div>
                    </td>
                    <td className="p-3">{money(invoice.amount_paid, invoice.currency)}</td>
                    <td className="p-3">
                      <span className={cn('rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize', statusClass[invoice.status ?? ''] ?? otherStatusClass)}>{invoice.status ?? 'unknown'}</span>
                    </td>
                    <td className="p-3">
                      <div className="flex justify-end gap-2">
                        {invoice.hosted_invoice_url ? (
                          <a href={invoice.hosted_invoice_url} target="_blank" rel="noopener noreferrer" className="inline-flex h-9 items-center gap-1 rounded-md border px-3 text-sm hover:bg-muted">
                            <ExternalLink className="h-4 w-4" aria-hidden="true" /> View<span className="sr-only"> invoice {invoice.number ?? invoice.id}</span>
                          </a>
                        ) : null}
                        <Button variant="outline" size="sm" disabled={downloading.has(invoice.id) || !invoice.invoice_pdf} onClick={() => void download(invoice)}>
                          <Download className="h-4 w-4" aria-hidden="true" /> {downloading.has(invoice.id) ? 'Downloading...' : 'Download'}
                          <span className="sr-only"> invoice {invoice.number ?? invoice.id}</span>
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        </CardContent>
      </Card>
    </div>
  );
}
