import type { OpenApiDocument, OpenApiOperation } from '@sendwell/contracts';

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const schemaBlock = (schema: unknown): string => `<pre>${escapeHtml(JSON.stringify(schema, null, 2))}</pre>`;

function operationHtml(path: string, method: string, operation: OpenApiOperation): string {
  const parameters = operation.parameters ?? [];
  return [
    `<section class="operation" id="${escapeHtml(operation.operationId)}">`,
    `<h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`,
    operation.security ? '<p class="auth">Needs a session (Bearer token or session cookie).</p>' : '<p class="auth">No session needed.</p>',
    parameters.length
      ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Required</th><th>Schema</th></tr>${parameters
          .map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : 'no'}</td><td>${schemaBlock(p.schema)}</td></tr>`)
          .join('')}</table>`
      : '',
    ...Object.entries(operation.requestBody?.content ?? {}).map(([type, body]) =>
      type === 'application/json' ? `<h4>Body (JSON)</h4>${schemaBlock(body.schema)}` : `<h4>Body (<code>${escapeHtml(type)}</code>)</h4><p>The file itself.</p>`,
    ),
    '<h4>Answers</h4>',
    ...Object.entries(operation.responses).map(
      ([status, answer]) =>
        `<details><summary><b>${status}</b> ${escapeHtml(answer.description)}</summary>${schemaBlock(answer.content['application/json'].schema)}</details>`,
    ),
    '</section>',
  ].join('\n');
}

/**
 * A readable reference of the OpenAPI document as plain HTML: no script at all, and its stylesheet
 * from the gateway itself, so it loads under the gateway's strict CSP (no inline script, no other origin).
 */
export function renderReferencePage(document: OpenApiDocument, stylesheetUrl: string): string {
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  const tags = [...new Set(operations.map(({ operation }) => operation.tags[0] ?? 'other'))];
  const sections = tags.map((tag) => {
    const inTag = operations.filter(({ operation }) => (operation.tags[0] ?? 'other') === tag);
    return `<h2 id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>\n${inTag.map(({ path, method, operation }) => operationHtml(path, method, operation)).join('\n')}`;
  });
  const index = operations
    .map(({ path, method, operation }) => `<li><a href="#${escapeHtml(operation.operationId)}">${method.toUpperCase()} ${escapeHtml(path)}</a></li>`)
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} reference</title>
<link rel="stylesheet" href="${escapeHtml(stylesheetUrl)}">
</head>
<body>
<header>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${escapeHtml(document.info.description)}</p>
<p>The machine-readable document: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p>
</header>
<nav><ul>${index}</ul></nav>
<main>
${sections.join('\n')}
</main>
</body>
</html>
`;
}

export const REFERENCE_STYLESHEET = `body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:70rem;padding:1rem 2rem;color:#1f2933}
h2{border-bottom:1px solid #cbd2d9;margin-top:2.5rem;text-transform:capitalize}
.operation{border:1px solid #e4e7eb;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
.method{border-radius:4px;color:#fff;font-size:.8em;padding:.1rem .4rem}
.get{background:#2f80ed}.post{background:#27ae60}.put{background:#f2994a}.delete{background:#eb5757}
.auth{color:#52606d;font-size:.9em;margin:0}
table{border-collapse:collapse}td,th{border:1px solid #e4e7eb;padding:.25rem .5rem;text-align:left;vertical-align:top}
pre{background:#f5f7fa;font-size:.8em;max-height:24rem;overflow:auto;padding:.5rem}
nav ul{columns:2;font-size:.85em}summary{cursor:pointer}
`;
