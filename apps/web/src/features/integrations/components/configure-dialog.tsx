import { integrationFieldLabels, integrationRequiredFields, type IntegrationService, type SaveIntegrationBody } from '@sendwell/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast-store';
import { errorMessage } from '@/lib/api-client';
import { integrationsQueryOptions, saveIntegration } from '../api/integrations';
import { fieldPlaceholders, secretFields, serviceInfo } from '../lib/services';

/**
 * One service's configure dialog (part 2 §4, §5): Save Configuration waits for every required field;
 * on success the toast names the service, the list is fetched again and only this dialog closes; on
 * failure it stays open with the server's message.
 */
export function ConfigureDialog({ service, open, onOpenChange }: { service: IntegrationService; open: boolean; onOpenChange: (open: boolean) => void }) {
  const fields = integrationRequiredFields[service];
  const [values, setValues] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const name = serviceInfo[service].name;
  const complete = fields.every((f) => (values[f] ?? '').trim() !== '');

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!complete || saving) return;
    setSaving(true);
    try {
      const config = Object.fromEntries(fields.map((f) => [f, (values[f] ?? '').trim()]));
      const answer = await saveIntegration({ service, config } as SaveIntegrationBody);
      toast({ title: 'Integration Configured', description: answer.message });
      await queryClient.invalidateQueries({ queryKey: integrationsQueryOptions().queryKey });
      setValues({});
      onOpenChange(false);
    } catch (error) {
      toast({ title: 'Configuration Failed', description: errorMessage(error, 'Failed to save integration configuration.'), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <form onSubmit={submit} className="grid grid-cols-1 gap-4">
          <DialogHeader>
            <DialogTitle>Configure {name}</DialogTitle>
            <DialogDescription>{serviceInfo[service].description}</DialogDescription>
          </DialogHeader>
          {fields.map((field) => (
            <FormField key={field} label={integrationFieldLabels[field]}>
              <Input
                type={secretFields.has(field) ? 'password' : field === 'email' ? 'email' : 'text'}
                autoComplete="off"
                placeholder={fieldPlaceholders[field]}
                value={values[field] ?? ''}
                onChange={(e) => setValues((v) => ({ ...v, [field]: e.target.value }))}
              />
            </FormField>
          ))}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={!complete || saving}>
              {saving ? 'Saving…' : 'Save Configuration'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
