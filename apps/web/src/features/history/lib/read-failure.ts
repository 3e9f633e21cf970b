import { ApiRequestError } from '@/lib/api-client';

/**
 * What a failed history or scan read says (part 2 §8 "Scan fetch errors"): the answer's HTTP status,
 * or, when no answer came (fetch itself failed), that the network did.
 */
export function readFailureText(error: unknown): string {
  return error instanceof ApiRequestError ? `Failed to load: ${error.status}` : 'Network error occurred';
}

/**
 * The "pattern" error of part 2 §2.4: the scan's data came back but is not readable as a scan. Safari
 * words an answer that is not JSON "The string did not match the expected pattern."; Chromium and
 * Firefox throw a SyntaxError for the same answer, so both mean it.
 */
export function isPatternError(error: unknown): boolean {
  return error instanceof SyntaxError || (error instanceof Error && error.message.includes('pattern'));
}
