import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '@/lib/api-client';
import { isPatternError, readFailureText } from './read-failure';

describe('history read failures (part 2 §8)', () => {
  it("says 'Failed to load: {status}' for an answer and 'Network error occurred' without one", () => {
    expect(readFailureText(new ApiRequestError('503: Service Unavailable', 503, '', null))).toBe('Failed to load: 503');
    expect(readFailureText(new TypeError('Failed to fetch'))).toBe('Network error occurred');
  });

  it('takes a message with "pattern", or an answer that is not JSON, as the pattern error', () => {
    expect(isPatternError(new Error('The string did not match the expected pattern.'))).toBe(true);
    expect(isPatternError(new SyntaxError('Unexpected token \'<\', "<!doctype "... is not valid JSON'))).toBe(true);
    expect(isPatternError(new ApiRequestError('404: {"message":"Scan not found"}', 404, '', null))).toBe(false);
    expect(isPatternError(new TypeError('Failed to fetch'))).toBe(false);
  });
});
