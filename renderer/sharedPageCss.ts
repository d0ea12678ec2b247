import fs from 'node:fs';
import { PurgeCSS } from 'purgecss';
import type { Plugin } from 'vite';
import type { SharedPageAssets } from '../api/contract/share';

/**
 * Emits `shared-page.json`: the stylesheet's rules that the server's markup of a shared page can
 * use (PurgeCSS against the markup's source, `markupSources`, so every class it can write counts),
 * and the URL of the whole stylesheet. A shared page then carries a few KB of CSS instead of all of
 * it, and its HTML fits in the first round trip of a slow phone's connection (LCP).
 */
export function sharedPageCss(markupSources: string[]): Plugin {
  return {
    name: 'giftlink:shared-page-css',
    apply: 'build',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const sheets = Object.values(bundle).filter((file) => file.type === 'asset' && file.fileName.endsWith('.css'));
      if (sheets.length !== 1 || sheets[0].type !== 'asset') {
        this.error(`expected one stylesheet in the build (cssCodeSplit: false), found ${sheets.length}`);
      }
      const sheet = sheets[0];
      const [purged] = await new PurgeCSS().purge({
        content: markupSources.map((file) => ({ raw: fs.readFileSync(file, 'utf8'), extension: 'html' })),
        css: [{ raw: String(sheet.source) }],
        safelist: { standard: ['html', 'body'] },
        variables: true,
        keyframes: true,
        fontFace: true,
      });
      const assets: SharedPageAssets = { stylesheet: `/${sheet.fileName}`, criticalCss: purged.css };
      // Under .vite/, beside the manifest: the server reads it, and never serves it (http/web.ts refuses dot folders).
      this.emitFile({ type: 'asset', fileName: '.vite/shared-page.json', source: JSON.stringify(assets) });
    },
  };
}
