import { describe, expect, it } from 'vitest';
import { readApiError } from './read-api-error.js';
import { apiErrorSchema } from './errors.js';

const samples: unknown[] = [
  { code: 'NOT_FOUND', message: 'Domain not found' },
  { code: 'PLAN_LIMIT', message: 'Upgrade', requiresUpgrade: true, details: { used: 3, quota: 3 }, requestId: 'req-1' },
  { code: 'VALIDATION_FAILED', message: 'Locked', currencyLocked: true, extra: 'dropped' },
  { code: 'RATE_LIMITED', message: 'Slow down', retryAfterSeconds: 30 },
  { code: 'RATE_LIMITED', message: 'Slow down', retryAfterSeconds: 1.5 },
  { code: 'RATE_LIMITED', message: 'Slow down', retryAfterSeconds: -1 },
  { code: 'RATE_LIMITED', message: 'Slow down', retryAfterSeconds: '30' },
  { code: 'NOPE', message: 'Unknown code' },
  { code: 'INTERNAL' },
  { code: 'INTERNAL', message: 42 },
  { code: 'CONFLICT', message: 'x', details: [1, 2] },
  { code: 'CONFLICT', message: 'x', details: null },
  { code: 'CONFLICT', message: 'x', requestId: 7 },
  { code: 'CONFLICT', message: 'x', requiresUpgrade: 'yes' },
  'a string',
  null,
  [],
  42,
];

describe('readApiError', () => {
  it.each(samples.map((s) => [JSON.stringify(s), s]))('reads %s as apiErrorSchema does', (_label, sample) => {
    const parsed = apiErrorSchema.safeParse(sample);
    expect(readApiError(sample)).toEqual(parsed.success ? parsed.data : null);
  });
});
