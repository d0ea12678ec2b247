import { describe, expect, it } from 'vitest';
import { scriptHash, sharedTemplate, withMarkup } from './shared-page.js';

const INDEX = `<!doctype html>
<html><head>
<script type="module" crossorigin src="/assets/index-1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/app-1.js">
<style>.all{}</style>
</head><body><div id="root"></div></body></html>`;
const ASSETS = { stylesheet: '/assets/style-1.css', criticalCss: '.hero{}</style>' };

describe("a shared page's template", () => {
  it('carries the markup, its own CSS and the loader, and no script or preload to fetch', () => {
    const template = sharedTemplate(INDEX, ASSETS);
    const page = withMarkup(template.html, '<p>$& $1 hi</p>');
    expect(page).not.toMatch(/<script[^>]*\ssrc=|modulepreload|\.all\{\}/);
    // The markup goes in as it is (no replacement patterns), and the CSS cannot close its element.
    expect(page).toContain('<div id="root"><p>$& $1 hi</p></div>');
    expect(page).toContain('<style>.hero{}<\\/style></style>');
    const loader = /<script>([\s\S]*?)<\/script>\s*<\/body>/.exec(page)?.[1] ?? '';
    expect(loader).toContain('"/assets/index-1.js"');
    expect(loader).toContain('"/assets/style-1.css"');
    expect(template.scriptSource).toBe(scriptHash(loader));
  });

  it('keeps the whole stylesheet inline without the build note, and shows the markup even from a build without an entry script', () => {
    expect(withMarkup(sharedTemplate(INDEX, undefined).html, 'x')).toContain('<style>.all{}</style>');
    const broken = INDEX.replace(/<script type="module"[^>]*><\/script>/, '');
    const template = sharedTemplate(broken, ASSETS);
    expect(template).toEqual({ html: broken });
    expect(withMarkup(template.html, '<p>card</p>')).toContain('<div id="root"><p>card</p></div>');
  });
});
