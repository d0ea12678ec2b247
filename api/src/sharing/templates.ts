import type { ShareFormat, ShareTemplate } from './urls.js';

/** The colours of one template (PRODUCT.md §9's five styles); the layout is the same for all. */
export interface Palette {
  /** The page behind everything: a CSS background (satori draws linear gradients). */
  background: string;
  /** Text on the background. */
  ink: string;
  /** Quieter text on the background. */
  muted: string;
  /** The white panel's accent: the amount, the call to action. */
  accent: string;
  /** Soft shapes on the background. */
  glow: string;
  /** The white panel's edge (a shadow costs the rasteriser seconds: none here). */
  panelEdge: string;
  /** A tile in the template's colours (the gift of a currency link's card). */
  tile: string;
  /** The Giftlink mark's tile. */
  markFrom: string;
  markTo: string;
}

const onColour = {
  panelEdge: 'rgba(255,255,255,0.6)',
  ink: '#ffffff',
  muted: 'rgba(255,255,255,0.82)',
  glow: 'rgba(255,255,255,0.14)',
  markFrom: '#ffffff',
  markTo: '#ffffff',
};

export const PALETTES: Record<ShareTemplate, Palette> = {
  standard: {
    background: 'linear-gradient(160deg, #ffffff 0%, #f4f0ff 55%, #ffe9f0 100%)',
    ink: '#1d1733',
    muted: '#6b6485',
    accent: '#6a4ce0',
    glow: 'rgba(106,76,224,0.08)',
    panelEdge: '#e7e1fb',
    tile: 'linear-gradient(145deg, #8b6cff 0%, #6a4ce0 55%, #ff6b8f 100%)',
    markFrom: '#6a4ce0',
    markTo: '#ff6b8f',
  },
  'purple-gradient': {
    ...onColour,
    tile: 'linear-gradient(145deg, #8b6cff 0%, #5b3fd6 100%)',
    background: 'linear-gradient(160deg, #8b6cff 0%, #6a4ce0 50%, #3f2a9e 100%)',
    accent: '#5b3fd6',
  },
  'green-gradient': {
    ...onColour,
    tile: 'linear-gradient(145deg, #34d399 0%, #0e8a6b 100%)',
    background: 'linear-gradient(160deg, #34d399 0%, #10a37f 50%, #0b6b57 100%)',
    accent: '#0e8a6b',
  },
  'orange-gradient': {
    ...onColour,
    tile: 'linear-gradient(145deg, #ffb347 0%, #f0476a 100%)',
    background: 'linear-gradient(160deg, #ffb347 0%, #ff7a45 50%, #f0476a 100%)',
    accent: '#e8572f',
  },
  'blue-gradient': {
    ...onColour,
    tile: 'linear-gradient(145deg, #4fc3ff 0%, #2443b8 100%)',
    background: 'linear-gradient(160deg, #4fc3ff 0%, #2f7bf0 50%, #2443b8 100%)',
    accent: '#2563eb',
  },
};

/** A format's layout size in CSS pixels and the pixel ratio it is drawn at. */
export interface FormatSize {
  width: number;
  height: number;
  ratio: number;
}

/** story: the spec's 360×640 layout at pixel ratio 3 (1080×1920); card: Open Graph's 1200×630. */
export const FORMATS: Record<ShareFormat, FormatSize> = {
  story: { width: 360, height: 640, ratio: 3 },
  card: { width: 600, height: 315, ratio: 2 },
};
