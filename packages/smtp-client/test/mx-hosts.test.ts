import { describe, expect, it } from 'vitest';
import { planMxHosts } from '../src/mx-hosts.js';

describe('planMxHosts', () => {
  it('orders distinct, normalised exchanges by preference and caps them', () => {
    const plan = planMxHosts(
      [
        { exchange: 'MX2.Example.com.', priority: 20 },
        { exchange: 'mx1.example.com', priority: 10 },
        { exchange: 'mx2.example.com', priority: 30 },
        { exchange: 'mx3.example.com', priority: 40 },
      ],
      2,
    );
    expect(plan).toEqual({
      hosts: [
        { exchange: 'mx1.example.com', priority: 10 },
        { exchange: 'mx2.example.com', priority: 20 },
      ],
      skipped: 1,
      nullMx: false,
    });
  });

  it('reads a null MX (RFC 7505), written "." or "" (c-ares), as no host at all', () => {
    expect(planMxHosts([{ exchange: '.', priority: 0 }])).toEqual({ hosts: [], skipped: 0, nullMx: true });
    expect(planMxHosts([{ exchange: '', priority: 0 }])).toEqual({ hosts: [], skipped: 0, nullMx: true });
    expect(planMxHosts([])).toEqual({ hosts: [], skipped: 0, nullMx: false });
    // Beside a real host the null MX is left out, and the host is still where mail goes.
    expect(planMxHosts([{ exchange: '.', priority: 0 }, { exchange: 'mx.example.com', priority: 10 }])).toEqual({
      hosts: [{ exchange: 'mx.example.com', priority: 10 }],
      skipped: 0,
      nullMx: false,
    });
  });
});
