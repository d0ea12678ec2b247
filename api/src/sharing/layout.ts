/**
 * The one layout of every share image: a satori element tree (HTML/CSS-like) made from a
 * `ShareContent` and its pictures, for each template and format. Pure: no I/O, so the tests can
 * read every string it will draw.
 */
import type { ShareContent } from './content.js';
import { DEFAULT_AVATAR, giftUri, markUri } from './mark.js';
import { FORMATS, PALETTES, type Palette } from './templates.js';
import type { ShareFormat, ShareTemplate } from './urls.js';

/** The pictures of one image as data URIs (null: none to show). */
export interface Pictures {
  avatar: string | null;
  item: string | null;
  wishes: (string | null)[];
}

type Style = Record<string, string | number>;
type Child = ShareNode | string;
/** A satori element, written out as JSX would make it. */
export interface ShareNode {
  type: string;
  key: null;
  props: { style?: Style; children?: Child | Child[]; src?: string; width?: number; height?: number };
}

const FONT_FAMILY = "'Inter', 'Inter Ext'";
const INK_ON_PANEL = '#1d1733';

/** A font size that fits `value` on one line: `sizes[i]` up to `lengths[i]` characters, the last beyond. */
function fitting(value: string, sizes: number[], lengths: number[]): number {
  const i = lengths.findIndex((max) => value.length <= max);
  return sizes[i === -1 ? sizes.length - 1 : i];
}
const MUTED_ON_PANEL = '#6b6485';

function h(
  type: 'div' | 'img',
  style: Style,
  children?: Child | Child[],
  extra: { src?: string; width?: number; height?: number } = {},
): ShareNode {
  const base: Style = type === 'div' ? { display: 'flex', boxSizing: 'border-box' } : { boxSizing: 'border-box' };
  return { type, key: null, props: { style: { ...base, ...style }, ...(children === undefined ? {} : { children }), ...extra } };
}

const text = (value: string, style: Style) => h('div', { display: 'block', ...style }, value);
const clamp = (lines: number): Style => ({ display: 'block', lineClamp: lines, overflow: 'hidden' });

const image = (src: string, size: number, style: Style = {}) =>
  h('img', { width: size, height: size, objectFit: 'cover', ...style }, undefined, { src, width: size, height: size });

function avatar(pictures: Pictures, size: number, border: string): ShareNode {
  return image(pictures.avatar ?? DEFAULT_AVATAR, size, { borderRadius: size / 2, border: `${Math.round(size / 18)}px solid ${border}` });
}

function mark(p: Palette, size: number, template: ShareTemplate): ShareNode {
  const src = template === 'standard' ? markUri(p.markFrom, p.markTo) : markUri('#ffffff', '#ffffff', p.accent);
  return h('div', { alignItems: 'center', gap: size * 0.35 }, [
    image(src, size),
    text('Giftlink', { fontSize: size * 0.68, fontWeight: 800, color: p.ink, letterSpacing: -0.3 }),
  ]);
}

/** A picture in a rounded frame, or the gift drawn on a tint when there is none. */
function frame(src: string | null, size: number, radius: number, p: Palette): ShareNode {
  if (src) return image(src, size, { borderRadius: radius });
  return h(
    'div',
    { width: size, height: size, borderRadius: radius, background: `${p.accent}14`, alignItems: 'center', justifyContent: 'center' },
    [image(giftUri(p.accent), Math.round(size * 0.5))],
  );
}

/** Up to four wished-for items, two to a row; past four, three and '+N'. */
function wishGrid(content: ShareContent, pictures: Pictures, p: Palette, size: number): ShareNode {
  const wishes = content.wishes ?? [];
  if (wishes.length === 0) return frame(null, size * 1.6, size * 0.3, p);
  const shown = wishes.slice(0, wishes.length > 4 ? 3 : 4);
  const gap = Math.round(size * 0.12);
  const tiles = shown.map((_, i) => frame(pictures.wishes[i] ?? null, size, size * 0.22, p));
  if (wishes.length > shown.length)
    tiles.push(
      h(
        'div',
        {
          width: size,
          height: size,
          borderRadius: size * 0.22,
          background: `${p.accent}14`,
          alignItems: 'center',
          justifyContent: 'center',
        },
        [text(`+${wishes.length - shown.length}`, { fontSize: size * 0.3, fontWeight: 800, color: p.accent })],
      ),
    );
  return h('div', { width: size * 2 + gap, gap, justifyContent: 'center', flexWrap: 'wrap' }, tiles);
}

/** The main figure: the amount, the item (picture and title) or the wishlist's items. */
function figure(content: ShareContent, pictures: Pictures, p: Palette, scale: number): ShareNode {
  if (content.amount !== undefined) {
    const size = content.amount.length > 8 ? 48 : content.amount.length > 5 ? 64 : 88;
    return text(content.amount, { fontSize: size * scale, fontWeight: 800, color: p.accent, letterSpacing: -2 * scale, lineHeight: 1.1 });
  }
  if (content.item)
    return h('div', { flexDirection: 'column', alignItems: 'center', gap: 14 * scale }, [
      frame(pictures.item, 160 * scale, 20 * scale, p),
      text(content.item.title, {
        ...clamp(2),
        fontSize: 18 * scale,
        fontWeight: 600,
        color: INK_ON_PANEL,
        textAlign: 'center',
        lineHeight: 1.3,
        maxWidth: 260 * scale,
      }),
    ]);
  return wishGrid(content, pictures, p, 96 * scale);
}

/** 360×640: the mark, a white panel with the creator and what they give or ask for, the short link. */
function story(content: ShareContent, pictures: Pictures, p: Palette, template: ShareTemplate): ShareNode {
  const { width, height } = FORMATS.story;
  return h(
    'div',
    {
      width,
      height,
      flexDirection: 'column',
      alignItems: 'center',
      background: p.background,
      fontFamily: FONT_FAMILY,
      padding: '30px 24px 32px',
      position: 'relative',
    },
    [
      h('div', { position: 'absolute', top: -90, right: -110, width: 300, height: 300, borderRadius: 150, background: p.glow }),
      h('div', { position: 'absolute', bottom: -70, left: -120, width: 280, height: 280, borderRadius: 140, background: p.glow }),
      mark(p, 30, template),
      h('div', { flexGrow: 1, minHeight: 52 }),
      h(
        'div',
        {
          flexDirection: 'column',
          alignItems: 'center',
          width: 312,
          background: '#ffffff',
          borderRadius: 28,
          padding: '0 22px 24px',
          position: 'relative',
          border: `1px solid ${p.panelEdge}`,
        },
        [
          h('div', { marginTop: -40 }, [avatar(pictures, 80, '#ffffff')]),
          text(content.displayName, {
            ...clamp(1),
            marginTop: 10,
            fontSize: fitting(content.displayName, [22, 18], [20]),
            fontWeight: 800,
            color: INK_ON_PANEL,
            maxWidth: 268,
            textAlign: 'center',
          }),
          text(`@${content.username}`, { marginTop: 2, fontSize: 13, color: MUTED_ON_PANEL }),
          text(content.headline, {
            marginTop: 14,
            marginBottom: 12,
            padding: '6px 14px',
            borderRadius: 999,
            background: `${p.accent}17`,
            color: p.accent,
            fontSize: 13,
            fontWeight: 800,
            textTransform: 'uppercase',
            letterSpacing: 1.2,
          }),
          figure(content, pictures, p, 1),
          text(content.note, { marginTop: 12, fontSize: 15, fontWeight: 600, color: MUTED_ON_PANEL, textAlign: 'center' }),
        ],
      ),
      h('div', { flexGrow: 1, minHeight: 16 }),
      h('div', { flexDirection: 'column', alignItems: 'center', gap: 8, position: 'relative' }, [
        text(content.kind === 'link' ? 'Open my link' : 'See my wishlist', {
          fontSize: 13,
          fontWeight: 600,
          color: p.muted,
          textTransform: 'uppercase',
          letterSpacing: 1.4,
        }),
        text(content.shortLink, {
          ...clamp(1),
          maxWidth: 312,
          padding: '12px 20px',
          borderRadius: 999,
          background: template === 'standard' ? p.accent : '#ffffff',
          color: template === 'standard' ? '#ffffff' : p.accent,
          fontSize: fitting(content.shortLink, [15, 13, 11.5], [28, 34]),
          fontWeight: 800,
        }),
      ]),
    ],
  );
}

/** 600×315 (Open Graph): who and what on the left, the figure on a white panel on the right. */
function card(content: ShareContent, pictures: Pictures, p: Palette, template: ShareTemplate): ShareNode {
  const { width, height } = FORMATS.card;
  const statement = content.item ? content.item.title : content.kind === 'wishlist' ? content.headline : null;
  const right =
    content.kind === 'wishlist'
      ? wishGrid(content, pictures, p, 100)
      : content.item
        ? frame(pictures.item, 231, 18, p)
        : h('div', { width: 231, height: 231, borderRadius: 18, background: p.tile, alignItems: 'center', justifyContent: 'center' }, [
            image(giftUri('#ffffff'), 120),
          ]);
  return h('div', { width, height, background: p.background, fontFamily: FONT_FAMILY, position: 'relative' }, [
    h('div', { position: 'absolute', top: -120, left: 220, width: 280, height: 280, borderRadius: 140, background: p.glow }),
    h('div', { width, height, padding: 28, gap: 28, position: 'relative' }, [
      h('div', { flexDirection: 'column', flexGrow: 1, flexShrink: 1, flexBasis: 0, minWidth: 0 }, [
        mark(p, 24, template),
        h('div', { flexGrow: 1 }),
        h('div', { alignItems: 'center', gap: 12 }, [
          avatar(pictures, 52, template === 'standard' ? '#ffffff' : 'rgba(255,255,255,0.9)'),
          h('div', { flexDirection: 'column', flexShrink: 1, minWidth: 0 }, [
            text(content.displayName, {
              ...clamp(1),
              fontSize: fitting(content.displayName, [20, 17], [18]),
              fontWeight: 800,
              color: p.ink,
              maxWidth: 220,
            }),
            text(`@${content.username}`, { fontSize: 13, color: p.muted }),
          ]),
        ]),
        content.kind === 'link'
          ? text(content.headline, {
              marginTop: 14,
              fontSize: 15,
              fontWeight: 600,
              color: p.muted,
              textTransform: 'uppercase',
              letterSpacing: 1.2,
            })
          : h('div', { height: 12 }),
        statement
          ? text(statement, {
              ...clamp(statement.length > 40 ? 3 : 2),
              marginTop: 2,
              fontSize: statement.length > 40 ? 20 : content.kind === 'wishlist' ? 34 : 28,
              fontWeight: 800,
              color: p.ink,
              lineHeight: 1.2,
            })
          : text(content.amount ?? '', {
              fontSize: (content.amount ?? '').length > 8 ? 40 : 56,
              fontWeight: 800,
              color: p.ink,
              letterSpacing: -1.5,
              lineHeight: 1.1,
            }),
        text(content.note, { marginTop: 6, fontSize: 14, color: p.muted }),
        h('div', { flexGrow: 1 }),
        h('div', {}, [
          text(content.shortLink, {
            ...clamp(1),
            maxWidth: 257,
            padding: '8px 14px',
            borderRadius: 999,
            background: template === 'standard' ? p.accent : '#ffffff',
            color: template === 'standard' ? '#ffffff' : p.accent,
            fontSize: fitting(content.shortLink, [13, 11, 9.5], [28, 34]),
            fontWeight: 800,
          }),
        ]),
      ]),
      h(
        'div',
        {
          width: 259,
          height: 259,
          flexShrink: 0,
          background: '#ffffff',
          borderRadius: 24,
          alignItems: 'center',
          justifyContent: 'center',
          padding: 14,
          border: `1px solid ${p.panelEdge}`,
        },
        [right],
      ),
    ]),
  ]);
}

/** The element tree satori draws for this content, template and format. */
export function shareLayout(content: ShareContent, pictures: Pictures, template: ShareTemplate, format: ShareFormat): ShareNode {
  const palette = PALETTES[template];
  return format === 'story' ? story(content, pictures, palette, template) : card(content, pictures, palette, template);
}

/** Every string the tree draws (its text children), for the tests that nothing private is shown. */
export function textsOf(node: Child | Child[] | undefined): string[] {
  if (node === undefined) return [];
  if (typeof node === 'string') return [node];
  if (Array.isArray(node)) return node.flatMap(textsOf);
  return textsOf(node.props.children);
}
