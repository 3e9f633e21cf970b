import { describe, expect, it } from 'vitest';
import { validateSvg } from './svg.js';

/** The SVG Tiny PS rules (draft-svg-tiny-ps-abrotman §2, BIMI Group guidance), one at a time. */

const svg = (body: string, root = 'version="1.2" baseProfile="tiny-ps" viewBox="0 0 100 100"', title = '<title>Brand</title>') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${root}>${title}${body}</svg>\n`;

const rules = (text: string) => validateSvg(text).violations.map((violation) => violation.rule);

describe('validateSvg', () => {
  it('accepts a compliant logo and reports its shape and title', () => {
    const report = validateSvg(svg('<rect width="100" height="100" fill="#fff"/><circle cx="50" cy="50" r="30" fill="url(#g)"/><use xlink:href="#c"/>'));
    expect(report).toMatchObject({ profile: 'tiny-ps', version: '1.2', width: 100, height: 100, square: true, title: 'Brand', violations: [] });
  });

  it.each([
    ['a script element', svg('<script>alert(1)</script>'), 'script'],
    ['an event handler', svg('<rect width="1" height="1" onclick="x()"/>'), 'script'],
    ['a script in another namespace', svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">x</h:script>'), 'script'],
    ['an external xlink:href', svg('<use xlink:href="https://evil.example/a.svg#x"/>'), 'external-reference'],
    ['an external plain href', svg('<use href="//evil.example/a.svg"/>'), 'external-reference'],
    ['an external paint server', svg('<rect width="1" height="1" fill="url(https://evil.example/p.svg#g)"/>'), 'external-reference'],
    ['animation', svg('<rect width="1" height="1"><animate attributeName="x" to="5"/></rect>'), 'animation'],
    ['set', svg('<rect width="1" height="1"><set attributeName="x" to="5"/></rect>'), 'animation'],
    ['a raster image', svg('<image width="10" height="10" xlink:href="data:image/png;base64,AAAA"/>'), 'raster-image'],
    ['a foreignObject', svg('<foreignObject width="1" height="1"/>'), 'forbidden-element'],
    ['a link', svg('<a xlink:href="#x"><rect width="1" height="1"/></a>'), 'forbidden-element'],
    ['the tiny profile', svg('', 'version="1.2" baseProfile="tiny" viewBox="0 0 100 100"'), 'profile'],
    ['no profile', svg('', 'version="1.2" viewBox="0 0 100 100"'), 'profile'],
    ['version 1.1', svg('', 'version="1.1" baseProfile="tiny-ps" viewBox="0 0 100 100"'), 'version'],
    ['x= on the root', svg('', 'version="1.2" baseProfile="tiny-ps" x="0" y="0" viewBox="0 0 100 100"'), 'root-position'],
    ['a wide viewBox', svg('', 'version="1.2" baseProfile="tiny-ps" viewBox="0 0 200 100"'), 'square'],
    ['no viewBox nor size', svg('', 'version="1.2" baseProfile="tiny-ps"'), 'square'],
    ['no title', svg('', undefined, ''), 'title'],
    ['an empty title', svg('', undefined, '<title>  </title>'), 'title'],
    ['a title not under the root', svg('<g><title>Brand</title></g>', undefined, ''), 'title'],
    ['HTML', '<html><body>logo</body></html>', 'document'],
    ['an svg root outside the SVG namespace', '<svg version="1.2" baseProfile="tiny-ps"><title>x</title></svg>', 'document'],
    ['XML that is not well-formed', svg('<rect width="1">'), 'document'],
    ['an undefined entity', `<!DOCTYPE svg [<!ENTITY e "x">]>${svg('<text>&e;</text>')}`, 'document'],
  ])('finds %s', (_what, text, rule) => {
    expect(rules(text)).toContain(rule);
  });

  it('takes the size from width and height without a viewBox', () => {
    expect(validateSvg(svg('', 'version="1.2" baseProfile="tiny-ps" width="64px" height="64"'))).toMatchObject({ width: 64, height: 64, square: true });
  });

  it('reports each broken rule once, however often it is broken', () => {
    const report = validateSvg(svg('<script>a()</script><script>b()</script><animate/>', 'version="1.2" baseProfile="tiny" viewBox="0 0 10 20"'));
    expect(report.violations.map((violation) => violation.rule).sort()).toEqual(['animation', 'profile', 'script', 'square']);
    expect(report.profile).toBe('tiny');
    expect(report.square).toBe(false);
  });
});
