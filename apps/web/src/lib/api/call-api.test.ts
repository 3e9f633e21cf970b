import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiUrl, callApi } from './call-api';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the calls typed by API_ROUTES', () => {
  it("builds a call's URL from its entry's path, each parameter URI-encoded", () => {
    expect(apiUrl('GET /api/domains')).toBe('/api/domains');
    expect(apiUrl('GET /api/domains/:id/scans/:scanId', { id: 12, scanId: 'a b' })).toBe('/api/domains/12/scans/a%20b');
    expect(apiUrl('GET /api/domains/by-name/:domainName', { domainName: 'ex/ample.com' })).toBe('/api/domains/by-name/ex%2Fample.com');
  });

  it('sends the entry\'s method to that URL, with the body as JSON, and answers the JSON', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ id: 1, name: 'example.com' }), { status: 201 }));
    vi.stubGlobal('fetch', fetch);
    await expect(callApi('POST /api/domains', { body: { name: 'example.com' } })).resolves.toEqual({ id: 1, name: 'example.com' });
    expect(fetch).toHaveBeenCalledWith('/api/domains', expect.objectContaining({ method: 'POST', body: JSON.stringify({ name: 'example.com' }) }));
    await callApi('POST /api/domains/:id/scan', { params: { id: 7 } });
    expect(fetch).toHaveBeenLastCalledWith('/api/domains/7/scan', expect.objectContaining({ method: 'POST', body: undefined }));
  });
});
