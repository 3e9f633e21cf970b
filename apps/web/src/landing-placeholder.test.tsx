import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LandingPlaceholder } from './landing-placeholder';

describe('LandingPlaceholder', () => {
  it('names the product and links to sign-in and registration', () => {
    const html = renderToStaticMarkup(<LandingPlaceholder />);
    expect(html).toContain('<h1>Sendwell</h1>');
    expect(html).toContain('href="/login"');
    expect(html).toContain('href="/register"');
  });
});
