import { Check, Copy } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast-store';

/** A value to paste into a DNS panel, with its copy button. */
export function CopyValue({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2_000);
    } catch {
      toast({ title: 'Copy failed', description: 'Select the value and copy it by hand.', variant: 'destructive' });
    }
  };
  return (
    <div className="flex items-start gap-2">
      <code className="min-w-0 flex-1 break-all rounded-md bg-muted px-2 py-1.5 font-mono text-xs" data-testid={`value-${label.toLowerCase()}`}>
        {value}
      </code>
      <Button type="button" variant="outline" size="sm" className="h-8 shrink-0" onClick={() => void copy()}>
        {copied ? <Check className="h-3.5 w-3.5" aria-hidden="true" /> : <Copy className="h-3.5 w-3.5" aria-hidden="true" />}
        {copied ? 'Copied' : 'Copy'}
        <span className="sr-only"> {label.toLowerCase()}</span>
      </Button>
    </div>
  );
}
