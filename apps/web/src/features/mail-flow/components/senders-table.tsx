import type { MailSender } from '@sendwell/contracts';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { Fragment, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { categoryBadge, categoryLabel, count, percent, plural } from '../lib/mail-flow-display';
import { ScrollX } from '@/components/ui/scroll-x';

/** Red under 90%, amber under 98%: DMARC enforcement wants nearly all legitimate mail aligned. */
function tone(share: number | null): string {
  if (share === null) return 'text-muted-foreground';
  if (share < 0.9) return 'text-red-700 dark:text-red-400';
  if (share < 0.98) return 'text-amber-700 dark:text-amber-400';
  return 'text-green-700 dark:text-green-400';
}

function Share({ value }: { value: number | null }) {
  return <span className={cn('font-medium tabular-nums', tone(value))}>{percent(value)}</span>;
}

function SenderRows({ sender }: { sender: MailSender }) {
  const [open, setOpen] = useState(false);
  const rowsId = useId();
  return (
    <Fragment>
      <tr className="border-b align-top last:border-0" data-testid="sender-row" data-category={sender.category}>
        <th scope="row" className="py-2.5 pr-3 text-left font-medium">
          <span className="break-words">{sender.name}</span>
          {sender.dkimSelectors.length ? <span className="block text-xs font-normal text-muted-foreground">DKIM selectors: {sender.dkimSelectors.join(', ')}</span> : null}
        </th>
        <td className="py-2.5 pr-3">
          <Badge variant={categoryBadge[sender.category]} data-testid="sender-category">
            {categoryLabel[sender.category]}
          </Badge>
        </td>
        <td className="py-2.5 pr-3">
          {sender.addresses.length ? (
            <Button variant="ghost" size="sm" className="-ml-2 h-7 px-2 tabular-nums" aria-expanded={open} aria-controls={rowsId} onClick={() => setOpen((o) => !o)}>
              {open ? <ChevronDown className="h-3.5 w-3.5" aria-hidden="true" /> : <ChevronRight className="h-3.5 w-3.5" aria-hidden="true" />}
              {plural(sender.addressCount, 'address', 'addresses')}
              <span className="sr-only"> of {sender.name}</span>
            </Button>
          ) : (
            <span className="tabular-nums">{plural(sender.addressCount, 'address', 'addresses')}</span>
          )}
        </td>
        <td className="py-2.5 pr-3 text-right tabular-nums" data-testid="sender-messages">
          {count(sender.messages)}
        </td>
        <td className="py-2.5 pr-3 text-right">
          <Share value={sender.spfAligned} />
        </td>
        <td className="py-2.5 pr-3 text-right">
          <Share value={sender.dkimAligned} />
        </td>
        <td className="py-2.5 text-right" data-testid="sender-dmarc">
          <Share value={sender.dmarcPass} />
        </td>
      </tr>
      {open ? (
        <tr id={rowsId} className="border-b bg-muted/40">
          <td colSpan={7} className="px-3 py-2">
            <ul className="grid grid-cols-1 gap-1 text-xs sm:grid-cols-2 lg:grid-cols-3">
              {sender.addresses.map((a) => (
                <li key={a.ip} className="flex justify-between gap-3">
                  <span className="min-w-0 break-all font-mono">
                    {a.ip}
                    {a.host ? <span className="text-muted-foreground"> ({a.host})</span> : null}
                  </span>
                  <span className="shrink-0 tabular-nums">{count(a.messages)}</span>
                </li>
              ))}
            </ul>
            {sender.addressCount > sender.addresses.length ? (
              <p className="mt-1 text-xs text-muted-foreground">The busiest {sender.addresses.length} of {count(sender.addressCount)} addresses.</p>
            ) : null}
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

/** Senders with their alignment; scrolls sideways on a phone rather than squeezing the numbers. */
export function SendersTable({ senders, caption, testId }: { senders: readonly MailSender[]; caption: string; testId: string }) {
  return (
    <ScrollX label={caption} data-testid={testId}>
      <table className="w-full min-w-[40rem] table-fixed text-sm">
        <caption className="sr-only">{caption}</caption>
        <colgroup>
          <col className="w-[24%]" />
          <col className="w-[15%]" />
          <col className="w-[15%]" />
          <col className="w-[10%]" />
          <col className="w-[12%]" />
          <col className="w-[12%]" />
          <col className="w-[12%]" />
        </colgroup>
        <thead>
          <tr className="border-b text-left text-xs text-muted-foreground">
            <th scope="col" className="py-2 pr-3 font-medium">
              Sender
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Category
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              Addresses
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              Messages
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              SPF aligned
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              DKIM aligned
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              DMARC pass
            </th>
          </tr>
        </thead>
        <tbody>
          {senders.map((s) => (
            <SenderRows key={s.id} sender={s} />
          ))}
        </tbody>
      </table>
    </ScrollX>
  );
}
