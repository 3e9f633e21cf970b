import { describe, expect, it } from 'vitest';
import { parseHeaderFields } from './header-fields.js';
import { cpuMsSince } from '@sendwell/testing/hostile';

describe('parseHeaderFields', () => {
  it('splits at the first colon, lower-cases names and unfolds continuation lines', () => {
    const block = 'Authentication-Results: mx.example;\n\tdkim=fail\n  header.d=example.com\nnot a field\nSource-IP: 2001:db8::1\n folded: not a field';
    expect(parseHeaderFields(block)).toEqual([
      { name: 'authentication-results', value: 'mx.example; dkim=fail header.d=example.com' },
      { name: 'source-ip', value: '2001:db8::1 folded: not a field' },
    ]);
  });

  it('unfolds a field of 100,000 continuation lines in linear time', () => {
    const started = process.cpuUsage();
    const [field] = parseHeaderFields(`X-Long: a${'\n b'.repeat(100_000)}`);
    expect(field?.value.length).toBe(1 + 2 * 100_000);
    expect(cpuMsSince(started)).toBeLessThan(200);
  });
});
