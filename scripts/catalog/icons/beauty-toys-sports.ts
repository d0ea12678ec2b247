/** Icons for Beauty & Personal Care, Toys & Games, Sports & Outdoors: drawn in a 200x200 local box. Shapes only, no text. */
import { hsl, type IconDraw, type Pal } from '../colour.js';

export const BEAUTY_TOYS_SPORTS_ICONS = {
  dropper: (c: Pal) => `
    <rect x="84" y="16" width="32" height="48" rx="16" fill="${c.d}"/>
    <rect x="80" y="60" width="40" height="28" rx="4" fill="${c.a}"/>
    <rect x="58" y="84" width="84" height="98" rx="20" fill="${c.p}"/>
    <rect x="70" y="116" width="60" height="44" rx="6" fill="${c.l}"/>
    <circle cx="100" cy="138" r="9" fill="${c.s}"/>
    <rect x="66" y="94" width="8" height="40" rx="4" fill="${c.l}" opacity="0.4"/>`,
  jar: (c: Pal) => `
    <rect x="42" y="62" width="116" height="34" rx="10" fill="${c.s}"/>
    <rect x="42" y="72" width="116" height="4" fill="${c.a}"/>
    <rect x="36" y="92" width="128" height="82" rx="24" fill="${c.p}"/>
    <ellipse cx="100" cy="134" rx="38" ry="22" fill="${c.l}"/>
    <circle cx="100" cy="134" r="8" fill="${c.a}"/>`,
  lipstick: (c: Pal) => `
    <g transform="rotate(-8 100 100)">
    <path d="M80 88 V46 Q80 36 90 32 L120 22 V88 Z" fill="${hsl(350, 70, 50)}"/>
    <rect x="76" y="84" width="48" height="28" rx="3" fill="#d9b15c"/>
    <rect x="70" y="108" width="60" height="74" rx="8" fill="${c.d}"/>
    <rect x="70" y="132" width="60" height="6" fill="#d9b15c"/></g>
    <rect x="140" y="104" width="30" height="78" rx="8" fill="${c.p}"/>
    <rect x="143" y="86" width="24" height="20" rx="3" fill="#d9b15c"/>
    <path d="M146 88 V70 L164 62 V88 Z" fill="${hsl(15, 75, 60)}"/>`,
  perfume: (c: Pal) => `
    <rect x="76" y="20" width="48" height="36" rx="8" fill="${c.d}"/>
    <rect x="88" y="52" width="24" height="22" fill="#d9b15c"/>
    <rect x="40" y="70" width="120" height="110" rx="26" fill="${c.p}" opacity="0.9"/>
    <rect x="48" y="108" width="104" height="64" rx="20" fill="${c.s}"/>
    <rect x="52" y="80" width="12" height="60" rx="6" fill="${c.l}" opacity="0.5"/>
    <circle cx="100" cy="130" r="14" fill="${c.a}"/>`,
  bathbomb: (c: Pal) => `
    <circle cx="64" cy="126" r="44" fill="${c.p}"/>
    <circle cx="136" cy="126" r="44" fill="${c.a}"/>
    <circle cx="100" cy="70" r="44" fill="${hsl(300, 50, 75)}"/>
    ${[
      [54, 110],
      [78, 140],
      [46, 140],
      [126, 112],
      [150, 138],
      [140, 150],
      [92, 56],
      [112, 80],
      [86, 86],
    ]
      .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="4" fill="${c.l}"/>`)
      .join('')}`,
  hairdryer: (c: Pal) => `
    <path d="M88 104 L74 178 Q72 186 82 186 H98 Q106 186 106 178 L112 104 Z" fill="${c.s}"/>
    <rect x="28" y="50" width="124" height="66" rx="33" fill="${c.p}"/>
    <rect x="142" y="60" width="40" height="46" rx="6" fill="${c.s}"/>
    <circle cx="60" cy="83" r="22" fill="${c.s}"/>
    <circle cx="60" cy="83" r="12" fill="${c.d}"/>
    <rect x="82" y="140" width="16" height="8" rx="3" fill="${c.a}"/>`,
  nailpolish: (c: Pal) => `
    <rect x="82" y="20" width="36" height="76" rx="8" fill="${c.d}"/>
    <rect x="56" y="92" width="88" height="90" rx="22" fill="${c.p}"/>
    <rect x="66" y="102" width="10" height="50" rx="5" fill="${c.l}" opacity="0.5"/>
    <rect x="24" y="130" width="26" height="52" rx="10" fill="${c.a}"/><rect x="30" y="104" width="14" height="28" rx="4" fill="${c.d}"/>
    <rect x="150" y="130" width="26" height="52" rx="10" fill="${hsl(330, 60, 65)}"/><rect x="156" y="104" width="14" height="28" rx="4" fill="${c.d}"/>`,
  blocks: (c: Pal) => {
    const brick = (x: number, y: number, w: number, col: string, dark: string) =>
      `${Array.from({ length: w / 30 }, (_, i) => `<rect x="${x + 8 + i * 30}" y="${y - 10}" width="16" height="12" rx="3" fill="${dark}"/>`).join('')}
       <rect x="${x}" y="${y}" width="${w}" height="44" rx="6" fill="${col}"/><rect x="${x}" y="${y + 36}" width="${w}" height="8" rx="4" fill="${dark}" opacity="0.5"/>`;
    return (
      brick(22, 134, 90, c.p, c.s) +
      brick(112, 134, 60, c.a, hsl(40, 70, 45)) +
      brick(52, 80, 90, hsl(140, 45, 50), hsl(140, 45, 35)) +
      brick(82, 26, 60, hsl(350, 65, 58), hsl(350, 55, 40))
    );
  },
  puzzle: (c: Pal) => `
    <rect x="30" y="30" width="66" height="66" rx="6" fill="${c.p}"/><circle cx="108" cy="63" r="14" fill="${c.p}"/>
    <rect x="104" y="30" width="66" height="66" rx="6" fill="${c.a}"/><circle cx="137" cy="108" r="14" fill="${c.a}"/>
    <rect x="30" y="104" width="66" height="66" rx="6" fill="${c.s}"/><circle cx="63" cy="96" r="14" fill="${c.s}"/>
    <rect x="110" y="116" width="62" height="62" rx="6" fill="${c.l}" transform="rotate(10 141 147)"/><circle cx="104" cy="146" r="13" fill="${c.l}"/>`,
  teddy: () => {
    const f = '#b9814f';
    const dk = '#8a5a33';
    const lt = '#e8c7a0';
    return `
    <circle cx="62" cy="40" r="20" fill="${f}"/><circle cx="62" cy="40" r="10" fill="${lt}"/>
    <circle cx="138" cy="40" r="20" fill="${f}"/><circle cx="138" cy="40" r="10" fill="${lt}"/>
    <ellipse cx="100" cy="146" rx="52" ry="44" fill="${f}"/>
    <ellipse cx="100" cy="150" rx="28" ry="26" fill="${lt}"/>
    <circle cx="52" cy="170" r="18" fill="${dk}"/><circle cx="148" cy="170" r="18" fill="${dk}"/>
    <circle cx="100" cy="72" r="46" fill="${f}"/>
    <ellipse cx="100" cy="88" rx="20" ry="15" fill="${lt}"/>
    <ellipse cx="100" cy="82" rx="8" ry="6" fill="#3b2416"/>
    <circle cx="82" cy="64" r="6" fill="#3b2416"/><circle cx="118" cy="64" r="6" fill="#3b2416"/>
    <path d="M70 112 H130 L100 126 Z" fill="${hsl(350, 65, 55)}"/>`;
  },
  dice: (c: Pal) => {
    const pip = (x: number, y: number, col: string) => `<circle cx="${x}" cy="${y}" r="7" fill="${col}"/>`;
    return `
    <g transform="rotate(-14 68 116)"><rect x="24" y="72" width="88" height="88" rx="16" fill="${c.l}"/>
      ${pip(46, 94, c.d)}${pip(90, 94, c.d)}${pip(68, 116, c.d)}${pip(46, 138, c.d)}${pip(90, 138, c.d)}</g>
    <g transform="rotate(16 136 92)"><rect x="94" y="50" width="84" height="84" rx="16" fill="${c.p}"/>
      ${pip(114, 70, c.l)}${pip(158, 70, c.l)}${pip(114, 92, c.l)}${pip(158, 92, c.l)}${pip(114, 114, c.l)}${pip(158, 114, c.l)}</g>`;
  },
  car: (c: Pal) => `
    <path d="M34 124 Q36 96 64 92 L84 62 Q90 56 100 56 H134 Q146 56 152 68 L164 92 Q184 96 184 120 V136 H20 V128 Z" fill="${c.p}"/>
    <path d="M90 70 H128 L140 92 H78 Z" fill="${c.l}" opacity="0.85"/>
    <path d="M110 70 V92" stroke="${c.p}" stroke-width="5"/>
    <rect x="166" y="104" width="14" height="10" rx="3" fill="${c.a}"/>
    <rect x="20" y="124" width="164" height="12" rx="6" fill="${c.s}"/>
    <circle cx="58" cy="138" r="24" fill="${c.d}"/><circle cx="58" cy="138" r="10" fill="${c.m}"/>
    <circle cx="146" cy="138" r="24" fill="${c.d}"/><circle cx="146" cy="138" r="10" fill="${c.m}"/>`,
  kite: (c: Pal) => `
    <path d="M96 20 L40 78 L96 90 Z" fill="${c.p}"/>
    <path d="M96 20 L152 78 L96 90 Z" fill="${c.a}"/>
    <path d="M40 78 L96 156 L96 90 Z" fill="${hsl(200, 65, 55)}"/>
    <path d="M152 78 L96 156 L96 90 Z" fill="${hsl(350, 65, 60)}"/>
    <path d="M96 20 V156 M40 78 H152" stroke="${c.d}" stroke-width="2"/>
    <path d="M96 156 Q120 170 104 184 Q90 196 118 198" stroke="${c.d}" stroke-width="3" fill="none"/>
    <path d="M104 168 l10 -6 v12 Z M102 186 l-10 -6 v12 Z" fill="${c.a}"/>`,
  cards: (c: Pal) => {
    const card = (rot: number, col: string, mark: string) => `
      <g transform="rotate(${rot} 100 170)"><rect x="62" y="38" width="76" height="112" rx="10" fill="${c.l}" stroke="${c.m}" stroke-width="2"/>
      ${mark.replace(/COL/g, col)}</g>`;
    const diamond = `<path d="M100 70 L120 94 L100 118 L80 94 Z" fill="COL"/>`;
    const heart = `<path d="M100 118 L78 94 A12 12 0 0 1 100 80 A12 12 0 0 1 122 94 Z" fill="COL"/>`;
    const circle = `<circle cx="100" cy="94" r="20" fill="COL"/>`;
    return card(-22, c.s, circle) + card(0, c.p, diamond) + card(22, hsl(350, 65, 55), heart);
  },
  yogamat: (c: Pal) => `
    <rect x="34" y="70" width="124" height="70" fill="${c.p}"/>
    <ellipse cx="34" cy="105" rx="18" ry="35" fill="${c.s}"/>
    <ellipse cx="158" cy="105" rx="18" ry="35" fill="${c.p}"/>
    <ellipse cx="158" cy="105" rx="12" ry="25" fill="none" stroke="${c.s}" stroke-width="3"/>
    <ellipse cx="158" cy="105" rx="6" ry="13" fill="none" stroke="${c.s}" stroke-width="3"/>
    <rect x="66" y="64" width="14" height="82" rx="4" fill="${c.a}"/>
    <rect x="112" y="64" width="14" height="82" rx="4" fill="${c.a}"/>
    <path d="M34 140 L14 172 H160 L158 140" fill="${c.p}" opacity="0.85"/>`,
  dumbbell: (c: Pal) => `
    <rect x="44" y="92" width="112" height="16" rx="4" fill="${c.m}"/>
    <rect x="14" y="72" width="16" height="56" rx="5" fill="${c.s}"/>
    <rect x="28" y="56" width="24" height="88" rx="6" fill="${c.d}"/>
    <rect x="170" y="72" width="16" height="56" rx="5" fill="${c.s}"/>
    <rect x="148" y="56" width="24" height="88" rx="6" fill="${c.d}"/>
    <rect x="80" y="90" width="40" height="20" rx="4" fill="${c.a}"/>`,
  flask: (c: Pal) => `
    <path d="M100 14 a14 14 0 1 1 0.1 0" fill="none" stroke="${c.d}" stroke-width="6"/>
    <rect x="76" y="24" width="48" height="36" rx="8" fill="${c.d}"/>
    <rect x="62" y="56" width="76" height="130" rx="24" fill="${c.p}"/>
    <rect x="62" y="96" width="76" height="16" fill="${c.a}"/>
    <rect x="72" y="120" width="10" height="54" rx="5" fill="${c.l}" opacity="0.4"/>`,
  tent: (c: Pal) => `
    <path d="M14 170 L100 34 L186 170 Z" fill="${c.p}"/>
    <path d="M100 34 L186 170 H140 Z" fill="${c.s}"/>
    <path d="M100 82 L70 170 H130 Z" fill="${c.d}"/>
    <path d="M100 82 L80 170 H100 Z" fill="${c.a}"/>
    <path d="M100 34 V14" stroke="${c.d}" stroke-width="4"/><path d="M100 14 L122 20 L100 26 Z" fill="${c.a}"/>
    <rect x="6" y="168" width="188" height="8" rx="4" fill="${c.d}" opacity="0.6"/>`,
  backpack: (c: Pal) => `
    <path d="M80 40 Q80 20 100 20 Q120 20 120 40" fill="none" stroke="${c.s}" stroke-width="9"/>
    <rect x="44" y="38" width="112" height="146" rx="34" fill="${c.p}"/>
    <path d="M44 86 Q100 64 156 86" stroke="${c.s}" stroke-width="6" fill="none"/>
    <rect x="64" y="112" width="72" height="56" rx="14" fill="${c.s}"/>
    <path d="M72 124 H128" stroke="${c.a}" stroke-width="4"/>
    <rect x="92" y="96" width="16" height="10" rx="3" fill="${c.a}"/>`,
  soccerball: (c: Pal) => `
    <circle cx="100" cy="100" r="76" fill="#ffffff"/>
    <path d="M100 74 L124 92 L115 120 H85 L76 92 Z" fill="${c.d}"/>
    <path d="M100 24 L122 34 L124 50 L100 58 L76 50 L78 34 Z" fill="${c.d}"/>
    <path d="M162 70 L174 96 L162 122 L146 112 L142 84 Z" fill="${c.d}"/>
    <path d="M38 70 L26 96 L38 122 L54 112 L58 84 Z" fill="${c.d}"/>
    <path d="M70 160 L78 140 H122 L130 160 Q100 180 70 160 Z" fill="${c.d}"/>
    <path d="M100 58 V74 M124 92 L142 84 M76 92 L58 84 M115 120 L122 140 M85 120 L78 140" stroke="${c.d}" stroke-width="4"/>
    <circle cx="100" cy="100" r="76" fill="none" stroke="${c.m}" stroke-width="3"/>`,
  basketball: () => `
    <circle cx="100" cy="100" r="76" fill="#e8823a"/>
    <path d="M24 100 H176 M100 24 V176" stroke="#3b2416" stroke-width="5"/>
    <path d="M48 44 Q80 100 48 156 M152 44 Q120 100 152 156" stroke="#3b2416" stroke-width="5" fill="none"/>
    <ellipse cx="76" cy="64" rx="18" ry="10" fill="#ffffff" opacity="0.25" transform="rotate(-30 76 64)"/>`,
  lantern: (c: Pal) => `
    <path d="M70 40 Q100 4 130 40" fill="none" stroke="${c.d}" stroke-width="7"/>
    <rect x="60" y="36" width="80" height="22" rx="8" fill="${c.p}"/>
    <rect x="66" y="56" width="68" height="96" rx="10" fill="#fff4c2"/>
    <circle cx="100" cy="104" r="24" fill="#ffd866"/>
    <circle cx="100" cy="104" r="12" fill="#fffaf0"/>
    <path d="M78 56 V152 M122 56 V152" stroke="${c.s}" stroke-width="6"/>
    <rect x="54" y="150" width="92" height="30" rx="10" fill="${c.p}"/>
    <rect x="90" y="160" width="20" height="8" rx="3" fill="${c.a}"/>`,
  racket: (c: Pal) => {
    let strings = '';
    for (let i = -3; i <= 3; i++)
      strings += `<path d="M${100 + i * 12} 20 V120 M40 ${70 + i * 12} H160" stroke="${c.l}" stroke-width="2"/>`;
    return `<g transform="rotate(-30 100 100)">
      <defs><clipPath id="rk"><ellipse cx="100" cy="70" rx="48" ry="58"/></clipPath></defs>
      <g clip-path="url(#rk)">${strings}</g>
      <ellipse cx="100" cy="70" rx="48" ry="58" fill="none" stroke="${c.p}" stroke-width="10"/>
      <path d="M88 126 L96 148 H104 L112 126" fill="none" stroke="${c.p}" stroke-width="8"/>
      <rect x="92" y="146" width="16" height="50" rx="6" fill="${c.d}"/>
      <rect x="92" y="146" width="16" height="8" fill="${c.a}"/></g>
      <circle cx="160" cy="150" r="20" fill="#d8ec4a"/><path d="M143 140 Q160 150 177 140 M143 160 Q160 150 177 160" stroke="#ffffff" stroke-width="3" fill="none"/>`;
  },
} satisfies Record<string, IconDraw>;
