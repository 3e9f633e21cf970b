import { OutboundError, type OutboundAnswer } from '@sendwell/server-kit';

/**
 * A 2xx answer is a delivery; 408, 429 and 5xx are worth another attempt; any other 4xx means the
 * request itself is wrong (a revoked token, a deleted webhook) and retrying cannot help.
 */
export function expectSuccess(answer: OutboundAnswer, service: string): void {
  if (answer.status >= 200 && answer.status < 300) return;
  const retry = answer.status === 408 || answer.status === 429 || answer.status >= 500;
  throw new OutboundError(`${service} answered HTTP ${answer.status}`, !retry);
}
