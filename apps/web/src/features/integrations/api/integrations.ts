import type {
  CreateWebhookAnswer,
  DeleteIntegrationAnswer,
  IntegrationService,
  ListIntegrationsAnswer,
  ListWebhooksAnswer,
  SaveIntegrationAnswer,
  SaveIntegrationBody,
  TestIntegrationAnswer,
} from '@sendwell/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

const servicePath = (service: IntegrationService) => `/api/integrations/${encodeURIComponent(service)}`;

/** GET /api/integrations: every service with configured and its delivery log. */
export const integrationsQueryOptions = () =>
  queryOptions({ queryKey: ['/api/integrations'], queryFn: () => api.get<ListIntegrationsAnswer>('/api/integrations') });
export const useIntegrations = () => useQuery(integrationsQueryOptions());

/** POST /api/integrations {service, config}: creates or replaces one service's config. */
export const saveIntegration = (body: SaveIntegrationBody) => api.post<SaveIntegrationAnswer>('/api/integrations', body);
/** POST /api/integrations/{service}/test: one test alert, sent now; `delivered` says whether it arrived. */
export const testIntegration = (service: IntegrationService) => api.post<TestIntegrationAnswer>(`${servicePath(service)}/test`);
export const removeIntegration = (service: IntegrationService) => api.delete<DeleteIntegrationAnswer>(servicePath(service));

/** GET /api/integrations/webhooks (advanced). */
export const webhooksQueryOptions = () =>
  queryOptions({ queryKey: ['/api/integrations/webhooks'], queryFn: () => api.get<ListWebhooksAnswer>('/api/integrations/webhooks') });
export const useWebhooks = (enabled: boolean) => useQuery({ ...webhooksQueryOptions(), enabled });
export const createWebhook = (url: string, description: string) =>
  api.post<CreateWebhookAnswer>('/api/integrations/webhooks', { url, description: description || null });
export const deleteWebhook = (id: number) => api.delete<{ success: true }>(`/api/integrations/webhooks/${id}`);
export const testWebhook = (id: number) => api.post<TestIntegrationAnswer>(`/api/integrations/webhooks/${id}/test`);
