import crypto from 'node:crypto';
import type { SharedPageAssets } from '../../contract/share.js';

/**
 * A shared page (a link or a wishlist) as the server sends it with its own markup in `#root`
 * (sharing/pages.tsx). On a slow phone the markup is the first impression, so the page carries
 * everything that paint needs and nothing else: the CSS rules the markup uses (from
 * dist/web/.vite/shared-page.json, written at build time by renderer/sharedPageCss.ts) instead of the
 * whole stylesheet, and no request for a script or a preload before the paint. A small inline
 * script (its hash is in the page's Content-Security-Policy) waits for the browser to report the
 * first contentful paint, then loads the whole stylesheet and the app's entry, which takes over
 * the markup (renderer/src/boot.tsx waits for the stylesheet before it renders).
 */

/** The longest the loader waits for the markup's first paint to be reported. */
export const PAINT_WAIT_MS = 1500;
/** How long a held click waits for the app before it is followed as a plain link. */
export const HOLD_MS = 10_000;

/**
 * The loader: once the first contentful paint is reported (at most PAINT_WAIT_MS; at once in a
 * hidden tab, which paints nothing, or a browser without paint timing), the whole stylesheet
 * (marked `data-app-stylesheet`, boot.tsx waits for it) and the entry load side by side. Until the
 * app marks `#root` as its own (`data-taken-over`), a plain click on one of the markup's in-app
 * links is held: its path waits on `#root` as `data-held-click` for the app to follow
 * (renderer/src/markupClicks.ts), or is followed as a plain link after HOLD_MS. A submit of the
 * markup's form (the login page's) is held the same way, as `data-held-submit` (the form's place
 * among the markup's forms): the app's own form, which takes over what was typed, sends it
 * (renderer/src/takeover.ts). No `<` in it: it sits inside a <script> element.
 */
export function loaderScript(entry: string, stylesheet: string | undefined): string {
  const load =
    `var d=document;` +
    (stylesheet
      ? `var l=d.createElement('link');l.rel='stylesheet';l.href=${JSON.stringify(stylesheet)};` +
        `l.setAttribute('data-app-stylesheet','');d.head.appendChild(l);`
      : '') +
    `var s=d.createElement('script');s.type='module';s.crossOrigin='';s.src=${JSON.stringify(entry)};d.head.appendChild(s);`;
  const hold =
    `var r=document.getElementById('root');` +
    `if(r)r.addEventListener('click',function(e){` +
    `if(r.hasAttribute('data-taken-over')||e.defaultPrevented||e.button!==0||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;` +
    `var a=e.target&&e.target.closest?e.target.closest('a'):null;var h=a&&a.getAttribute('href');` +
    `if(!h||h.charAt(0)!=='/'||h.charAt(1)==='/')return;` +
    `e.preventDefault();r.setAttribute('data-held-click',h);go();` +
    `setTimeout(function(){if(r.getAttribute('data-held-click')===h)location.assign(h);},${HOLD_MS});});` +
    // A form of the markup (the login page's) is never sent by the browser itself: the app sends it.
    `if(r)r.addEventListener('submit',function(e){e.preventDefault();` +
    `r.setAttribute('data-held-submit',String([].indexOf.call(r.querySelectorAll('form'),e.target)));go();});`;
  return (
    `(function(){var done=false;function go(){if(done)return;done=true;${load}}${hold}` +
    `var P=window.PerformanceObserver;` +
    `if(document.visibilityState==='hidden'||!P||!P.supportedEntryTypes||P.supportedEntryTypes.indexOf('paint')===-1)return go();` +
    `var o=new P(function(list){if(list.getEntriesByName('first-contentful-paint').length){o.disconnect();go();}});` +
    `o.observe({type:'paint',buffered:true});setTimeout(go,${PAINT_WAIT_MS});})();`
  );
}

/** The CSP source that allows exactly `script` as an inline script. */
export const scriptHash = (script: string) => `'sha256-${crypto.createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/** `policy` with `source` added to its script-src (unchanged without one: the inline script then stays blocked). */
export const allowScript = (policy: string, source: string) =>
  policy.replace(/(^|;)(\s*script-src\b[^;]*)/, (_, start: string, directive: string) => `${start}${directive.trimEnd()} ${source}`);

const ENTRY_TAG = /\s*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/;
const STYLE = /<style>[\s\S]*?<\/style>/;

/** index.html made ready for a shared page's markup (`sharedTemplate`), and the CSP source its loader needs. */
export interface SharedTemplate {
  html: string;
  scriptSource?: string;
}

/**
 * index.html as every shared page starts from, made once per build: without the entry's script tag
 * and the app's module preloads, with only the markup's CSS when `assets` are known (else the whole
 * stylesheet stays inline), and with the loader at the end of the body. An index.html without an
 * entry script (a broken build) stays as it is: its pages still show their markup.
 */
export function sharedTemplate(html: string, assets: SharedPageAssets | undefined): SharedTemplate {
  const entry = ENTRY_TAG.exec(html)?.[1];
  if (!entry) return { html };
  const split = assets && STYLE.test(html) ? assets : undefined;
  const loader = loaderScript(entry, split?.stylesheet);
  let page = html.replace(ENTRY_TAG, '').replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
  if (split) page = page.replace(STYLE, () => `<style>${split.criticalCss.replaceAll('</style', '<\\/style')}</style>`);
  page = page.replace(/<\/body>/i, () => `<script>${loader}</script>\n  </body>`);
  return { html: page, scriptSource: scriptHash(loader) };
}

/** A page of `template` with `markup` (escaped) in its empty `#root`. */
export const withMarkup = (template: string, markup: string): string =>
  template.replace(/<div id="root"><\/div>/, () => `<div id="root">${markup}</div>`);
