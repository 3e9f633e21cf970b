import type { ApiError } from './errors.js';
import { ErrorCode } from './error-codes.js';

const errorCodes = new Set<string>(Object.values(ErrorCode));
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * An error answer's body read without zod, for the web app, which reads one on every failed call and
 * would otherwise load the schema library for it. It keeps what `apiErrorSchema` keeps and refuses
 * what it refuses (a test holds the two to the same answers).
 */
export function readApiError(value: unknown): ApiError | null {
  if (!isRecord(value) || typeof value.code !== 'string' || !errorCodes.has(value.code) || typeof value.message !== 'string') return null;
  const { requestId, details, requiresUpgrade, currencyLocked, retryAfterSeconds } = value;
  if (requestId !== undefined && typeof requestId !== 'string') return null;
  if (details !== undefined && !isRecord(details)) return null;
  if (requiresUpgrade !== undefined && typeof requiresUpgrade !== 'boolean') return null;
  if (currencyLocked !== undefined && typeof currencyLocked !== 'boolean') return null;
  if (retryAfterSeconds !== undefined && !(typeof retryAfterSeconds === 'number' && Number.isInteger(retryAfterSeconds) && retryAfterSeconds >= 0)) return null;
  const error: ApiError = { code: value.code as ErrorCode, message: value.message };
  if (requestId !== undefined) error.requestId = requestId;
  if (details !== undefined) error.details = details;
  if (requiresUpgrade !== undefined) error.requiresUpgrade = requiresUpgrade;
  if (currencyLocked !== undefined) error.currencyLocked = currencyLocked;
  if (retryAfterSeconds !== undefined) error.retryAfterSeconds = retryAfterSeconds;
  return error;
}
