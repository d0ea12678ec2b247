/** Icons for Electronics, Books, Home & Kitchen: drawn in a 200x200 local box. Shapes only, no text. */
import type { IconDraw, Pal } from '../colour.js';

export const ELECTRONICS_BOOKS_HOME_ICONS = {
  headphones: (c: Pal) => `
    <path d="M38 122 V98 A62 62 0 0 1 162 98 V122" fill="none" stroke="${c.s}" stroke-width="14" stroke-linecap="round"/>
    <rect x="22" y="100" width="40" height="66" rx="16" fill="${c.p}"/>
    <rect x="138" y="100" width="40" height="66" rx="16" fill="${c.p}"/>
    <rect x="52" y="110" width="14" height="46" rx="6" fill="${c.d}"/>
    <rect x="134" y="110" width="14" height="46" rx="6" fill="${c.d}"/>
    <circle cx="42" cy="133" r="8" fill="${c.a}"/>`,
  earbuds: (c: Pal) => `
    <rect x="36" y="92" width="128" height="82" rx="36" fill="${c.l}"/>
    <path d="M36 122 H164" stroke="${c.m}" stroke-width="4"/>
    <circle cx="100" cy="148" r="5" fill="${c.a}"/>
    <circle cx="68" cy="60" r="22" fill="${c.p}"/><rect x="60" y="60" width="16" height="44" rx="8" fill="${c.p}"/>
    <circle cx="68" cy="60" r="9" fill="${c.s}"/>
    <circle cx="132" cy="60" r="22" fill="${c.p}"/><rect x="124" y="60" width="16" height="44" rx="8" fill="${c.p}"/>
    <circle cx="132" cy="60" r="9" fill="${c.s}"/>`,
  speaker: (c: Pal) => `
    <rect x="48" y="28" width="104" height="150" rx="26" fill="${c.p}"/>
    <rect x="48" y="28" width="104" height="150" rx="26" fill="none" stroke="${c.s}" stroke-width="6"/>
    <circle cx="100" cy="72" r="18" fill="${c.s}"/><circle cx="100" cy="72" r="8" fill="${c.a}"/>
    <circle cx="100" cy="130" r="34" fill="${c.s}"/><circle cx="100" cy="130" r="20" fill="${c.d}"/><circle cx="100" cy="130" r="7" fill="${c.a}"/>`,
  watch: (c: Pal) => `
    <rect x="76" y="12" width="48" height="176" rx="14" fill="${c.s}"/>
    <circle cx="100" cy="100" r="50" fill="${c.d}"/>
    <circle cx="100" cy="100" r="41" fill="${c.l}"/>
    <circle cx="100" cy="100" r="41" fill="none" stroke="${c.a}" stroke-width="4"/>
    <path d="M100 100 V72 M100 100 L120 110" stroke="${c.d}" stroke-width="5" stroke-linecap="round"/>
    <circle cx="100" cy="100" r="4" fill="${c.a}"/>
    <rect x="148" y="92" width="10" height="16" rx="3" fill="${c.m}"/>`,
  battery: (c: Pal) => `
    <rect x="52" y="26" width="96" height="152" rx="20" fill="${c.p}"/>
    <rect x="62" y="36" width="76" height="132" rx="12" fill="${c.s}"/>
    <path d="M108 56 L80 106 H100 L92 148 L122 92 H102 Z" fill="${c.a}"/>
    <rect x="84" y="16" width="32" height="12" rx="4" fill="${c.d}"/>`,
  keyboard: (c: Pal) => {
    let keys = '';
    for (let r = 0; r < 3; r++)
      for (let k = 0; k < 9; k++)
        keys += `<rect x="${26 + k * 17}" y="${72 + r * 19}" width="13" height="14" rx="3" fill="${(r + k) % 7 === 3 ? c.a : c.l}"/>`;
    return `<rect x="12" y="58" width="176" height="100" rx="14" fill="${c.d}"/>${keys}
      <rect x="60" y="131" width="80" height="14" rx="4" fill="${c.p}"/>`;
  },
  camera: (c: Pal) => `
    <rect x="52" y="42" width="44" height="26" rx="7" fill="${c.s}"/>
    <rect x="22" y="58" width="156" height="112" rx="20" fill="${c.p}"/>
    <rect x="22" y="92" width="156" height="12" fill="${c.s}" opacity="0.5"/>
    <circle cx="100" cy="116" r="40" fill="${c.l}"/>
    <circle cx="100" cy="116" r="31" fill="${c.d}"/>
    <circle cx="100" cy="116" r="15" fill="${c.s}"/>
    <circle cx="92" cy="108" r="6" fill="${c.l}" opacity="0.8"/>
    <rect x="142" y="70" width="24" height="14" rx="4" fill="${c.a}"/>`,
  tablet: (c: Pal) => `
    <rect x="46" y="20" width="108" height="160" rx="16" fill="${c.d}"/>
    <rect x="56" y="34" width="88" height="124" rx="4" fill="${c.l}"/>
    ${[48, 60, 72, 84, 96, 108, 120, 132].map((y, i) => `<rect x="66" y="${y}" width="${i % 3 === 2 ? 44 : 68}" height="5" rx="2" fill="${c.m}"/>`).join('')}
    <circle cx="100" cy="169" r="5" fill="${c.a}"/>`,
  mouse: (c: Pal) => `
    <rect x="58" y="30" width="84" height="146" rx="42" fill="${c.p}"/>
    <path d="M100 30 V92 M58 92 H142" stroke="${c.s}" stroke-width="4"/>
    <rect x="94" y="48" width="12" height="26" rx="6" fill="${c.a}"/>
    <ellipse cx="82" cy="60" rx="6" ry="14" fill="${c.l}" opacity="0.35"/>`,
  book: (c: Pal, v: number) => {
    const motifs = [
      `<circle cx="110" cy="118" r="22" fill="${c.a}"/><path d="M110 100 L114 114 L128 118 L114 122 L110 136 L106 122 L92 118 L106 114 Z" fill="${c.l}"/>`,
      `<path d="M72 150 L98 108 L114 130 L124 116 L148 150 Z" fill="${c.a}"/><circle cx="130" cy="96" r="9" fill="${c.l}"/>`,
      `<path d="M70 112 Q90 96 110 112 T150 112 M70 128 Q90 112 110 128 T150 128 M70 144 Q90 128 110 144 T150 144" stroke="${c.a}" stroke-width="6" fill="none"/>`,
      `<circle cx="110" cy="120" r="24" fill="${c.a}"/><circle cx="122" cy="112" r="20" fill="${c.p}"/>`,
      `<ellipse cx="110" cy="120" rx="14" ry="30" fill="${c.a}" transform="rotate(35 110 120)"/><path d="M94 142 L128 98" stroke="${c.p}" stroke-width="3"/>`,
      `<rect x="80" y="96" width="60" height="50" rx="4" fill="${c.l}"/><rect x="86" y="102" width="48" height="38" rx="2" fill="${c.a}"/>`,
    ];
    return `
    <rect x="46" y="22" width="112" height="158" rx="6" fill="${c.s}"/>
    <rect x="52" y="22" width="106" height="150" rx="6" fill="${c.p}"/>
    <rect x="46" y="172" width="106" height="10" rx="3" fill="${c.l}"/>
    <rect x="52" y="22" width="14" height="150" fill="${c.s}" opacity="0.55"/>
    <rect x="80" y="50" width="60" height="8" rx="4" fill="${c.l}"/>
    <rect x="88" y="66" width="44" height="6" rx="3" fill="${c.l}" opacity="0.8"/>
    ${motifs[v % motifs.length]}`;
  },
  books: (c: Pal) => `
    <rect x="30" y="150" width="140" height="28" rx="4" fill="${c.s}"/><rect x="30" y="158" width="140" height="6" fill="${c.a}"/>
    <rect x="40" y="122" width="124" height="28" rx="4" fill="${c.p}"/><rect x="150" y="122" width="8" height="28" fill="${c.l}"/>
    <rect x="34" y="94" width="132" height="28" rx="4" fill="${c.a}"/><rect x="44" y="104" width="60" height="6" rx="3" fill="${c.l}"/>
    <rect x="48" y="30" width="26" height="64" rx="3" fill="${c.d}"/><rect x="78" y="40" width="24" height="54" rx="3" fill="${c.p}"/>
    <rect x="106" y="26" width="28" height="68" rx="3" fill="${c.s}" transform="rotate(12 120 94)"/>`,
  mug: (c: Pal) => `
    <path d="M84 48 q-10 -12 0 -24 M104 48 q-10 -12 0 -24 M124 48 q-10 -12 0 -24" stroke="${c.l}" stroke-width="5" fill="none" stroke-linecap="round"/>
    <path d="M142 82 h10 a24 24 0 0 1 0 48 h-10" fill="none" stroke="${c.s}" stroke-width="13"/>
    <rect x="48" y="60" width="100" height="112" rx="14" fill="${c.p}"/>
    <rect x="48" y="100" width="100" height="20" fill="${c.a}"/>
    <ellipse cx="98" cy="62" rx="50" ry="7" fill="${c.s}"/>`,
  pan: (c: Pal) => `
    <rect x="128" y="96" width="68" height="18" rx="9" fill="${c.d}"/>
    <circle cx="184" cy="105" r="4" fill="${c.l}"/>
    <circle cx="76" cy="105" r="62" fill="${c.d}"/>
    <circle cx="76" cy="105" r="50" fill="${c.s}"/>
    <ellipse cx="66" cy="112" rx="16" ry="12" fill="${c.l}"/><circle cx="70" cy="110" r="7" fill="${c.a}"/>
    <ellipse cx="92" cy="88" rx="12" ry="8" fill="${c.l}" opacity="0.9"/>`,
  kettle: (c: Pal) => `
    <path d="M58 96 Q30 100 18 62" stroke="${c.s}" stroke-width="10" fill="none" stroke-linecap="round"/>
    <path d="M62 74 Q100 50 138 74 L150 170 H50 Z" fill="${c.p}"/>
    <rect x="44" y="164" width="112" height="14" rx="5" fill="${c.s}"/>
    <ellipse cx="100" cy="72" rx="36" ry="9" fill="${c.s}"/>
    <circle cx="100" cy="58" r="8" fill="${c.a}"/>
    <path d="M140 82 Q178 100 148 150" stroke="${c.d}" stroke-width="11" fill="none" stroke-linecap="round"/>
    <rect x="64" y="100" width="10" height="54" rx="5" fill="${c.l}" opacity="0.35"/>`,
  knife: (c: Pal) => `<g transform="rotate(-32 100 100)">
    <path d="M8 92 H124 V120 H30 Q10 116 8 92 Z" fill="${c.m}"/>
    <path d="M8 92 H124 V98 H12 Z" fill="${c.l}" opacity="0.8"/>
    <rect x="120" y="88" width="8" height="36" rx="3" fill="${c.d}"/>
    <rect x="126" y="91" width="66" height="30" rx="10" fill="${c.s}"/>
    <circle cx="146" cy="106" r="4" fill="${c.a}"/><circle cx="172" cy="106" r="4" fill="${c.a}"/></g>`,
  candle: (c: Pal) => `
    <rect x="52" y="78" width="96" height="100" rx="16" fill="${c.p}"/>
    <rect x="52" y="78" width="96" height="18" rx="8" fill="${c.s}"/>
    <rect x="62" y="112" width="76" height="40" rx="6" fill="${c.l}"/>
    <circle cx="100" cy="132" r="10" fill="${c.a}"/>
    <rect x="98" y="58" width="4" height="22" fill="${c.d}"/>
    <path d="M100 22 Q120 48 100 64 Q80 48 100 22 Z" fill="#ffb347"/>
    <path d="M100 38 Q110 52 100 60 Q90 52 100 38 Z" fill="#fff3b0"/>`,
  plant: (c: Pal) => `
    <ellipse cx="72" cy="62" rx="16" ry="40" fill="#3f9a62" transform="rotate(-30 72 92)"/>
    <ellipse cx="128" cy="62" rx="16" ry="40" fill="#4fb577" transform="rotate(30 128 92)"/>
    <ellipse cx="100" cy="50" rx="16" ry="44" fill="#2f8453"/>
    <path d="M100 50 V100" stroke="#24683f" stroke-width="3"/>
    <rect x="44" y="96" width="112" height="20" rx="6" fill="${c.s}"/>
    <path d="M52 114 H148 L136 180 H64 Z" fill="${c.p}"/>
    <path d="M58 140 H142" stroke="${c.a}" stroke-width="6"/>`,
  coffeemaker: (c: Pal) => `
    <rect x="32" y="166" width="136" height="16" rx="6" fill="${c.d}"/>
    <rect x="116" y="28" width="48" height="142" rx="10" fill="${c.p}"/>
    <rect x="36" y="24" width="128" height="36" rx="12" fill="${c.p}"/>
    <rect x="36" y="54" width="80" height="10" fill="${c.s}"/>
    <rect x="128" y="80" width="24" height="40" rx="6" fill="${c.s}"/>
    <circle cx="140" cy="140" r="7" fill="${c.a}"/>
    <path d="M50 96 H104 L100 162 H54 Z" fill="${c.l}" opacity="0.9"/>
    <path d="M53 126 H101 L100 162 H54 Z" fill="#6b3e26"/>
    <path d="M104 110 h8 v30 h-8" fill="none" stroke="${c.d}" stroke-width="5"/>
    <rect x="46" y="90" width="62" height="10" rx="4" fill="${c.d}"/>`,
  blanket: (c: Pal) => `
    <rect x="40" y="44" width="124" height="40" rx="14" fill="${c.a}"/>
    <rect x="30" y="82" width="140" height="44" rx="14" fill="${c.p}"/>
    <rect x="36" y="124" width="132" height="46" rx="14" fill="${c.s}"/>
    <path d="M30 104 H170" stroke="${c.l}" stroke-width="4" stroke-dasharray="10 6"/>
    <path d="M36 147 H168" stroke="${c.a}" stroke-width="5"/>
    <path d="M40 64 H164" stroke="${c.l}" stroke-width="4" stroke-dasharray="4 6"/>`,
  mixer: (c: Pal) => `
    <rect x="20" y="164" width="156" height="18" rx="9" fill="${c.p}"/>
    <path d="M124 168 V84 Q124 66 142 66 Q160 66 160 84 V168 Z" fill="${c.p}"/>
    <path d="M30 40 Q30 24 50 24 H146 Q172 24 172 50 Q172 76 146 76 H44 Q30 76 30 62 Z" fill="${c.p}"/>
    <path d="M30 62 Q30 76 44 76 H146 Q166 76 171 60" fill="none" stroke="${c.s}" stroke-width="5"/>
    <circle cx="150" cy="50" r="9" fill="${c.a}"/>
    <rect x="150" y="96" width="6" height="24" rx="3" fill="${c.s}"/>
    <rect x="72" y="74" width="10" height="30" fill="${c.m}"/>
    <path d="M30 104 H124 Q122 152 77 162 Q32 152 30 104 Z" fill="${c.m}"/>
    <rect x="26" y="100" width="102" height="10" rx="5" fill="${c.l}"/>
    <path d="M44 120 Q46 146 66 154" stroke="#ffffff" stroke-width="6" fill="none" opacity="0.6" stroke-linecap="round"/>`,
} satisfies Record<string, IconDraw>;
