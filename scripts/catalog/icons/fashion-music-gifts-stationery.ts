/** Icons for Fashion, Music, Gift Cards & Experiences, Stationery & Office: drawn in a 200x200 local box. Shapes only, no text. */
import { hsl, type IconDraw, type Pal } from '../colour.js';

export const FASHION_MUSIC_GIFTS_STATIONERY_ICONS = {
  sweater: (c: Pal) => `
    <path d="M62 30 L26 48 L10 138 L36 146 L54 84 V176 H146 V84 L164 146 L190 138 L174 48 L138 30 Q100 52 62 30 Z" fill="${c.p}"/>
    <path d="M62 30 Q100 58 138 30" fill="none" stroke="${c.s}" stroke-width="10"/>
    <rect x="54" y="164" width="92" height="14" fill="${c.s}"/>
    <path d="M12 130 L36 138 M188 130 L164 138" stroke="${c.s}" stroke-width="12"/>
    <path d="M70 100 l10 10 l10 -10 l10 10 l10 -10 l10 10 l10 -10" stroke="${c.a}" stroke-width="5" fill="none"/>`,
  shirt: (c: Pal) => `
    <path d="M64 34 L24 56 L10 96 L44 110 L54 90 V176 H146 V90 L156 110 L190 96 L176 56 L136 34 Q100 56 64 34 Z" fill="${c.p}"/>
    <path d="M64 34 Q100 60 136 34" fill="none" stroke="${c.s}" stroke-width="7"/>
    <circle cx="124" cy="84" r="10" fill="${c.a}"/>`,
  wallet: (c: Pal) => `
    <rect x="24" y="52" width="152" height="108" rx="16" fill="${c.p}"/>
    <rect x="32" y="60" width="136" height="92" rx="10" fill="none" stroke="${c.l}" stroke-width="2.5" stroke-dasharray="6 5" opacity="0.7"/>
    <rect x="40" y="40" width="80" height="22" rx="4" fill="${c.a}"/>
    <path d="M118 84 H176 V128 H118 Q104 128 104 114 V98 Q104 84 118 84 Z" fill="${c.s}"/>
    <circle cx="126" cy="106" r="7" fill="${c.a}"/>`,
  beanie: (c: Pal) => `
    <circle cx="100" cy="30" r="20" fill="${c.a}"/>
    <path d="M36 128 Q36 44 100 44 Q164 44 164 128 Z" fill="${c.p}"/>
    ${[64, 88, 112, 136].map((x) => `<path d="M${x} 56 Q${x - 6} 90 ${x} 128" stroke="${c.s}" stroke-width="5" fill="none"/>`).join('')}
    <rect x="28" y="120" width="144" height="44" rx="12" fill="${c.s}"/>
    ${[44, 60, 76, 92, 108, 124, 140, 156].map((x) => `<path d="M${x} 126 V158" stroke="${c.p}" stroke-width="4"/>`).join('')}`,
  tote: (c: Pal) => `
    <path d="M66 70 V52 Q66 22 100 22 Q134 22 134 52 V70" fill="none" stroke="${c.d}" stroke-width="9"/>
    <path d="M34 66 H166 L176 182 H24 Z" fill="${c.p}"/>
    <rect x="34" y="66" width="132" height="14" fill="${c.s}"/>
    <circle cx="66" cy="74" r="5" fill="${c.a}"/><circle cx="134" cy="74" r="5" fill="${c.a}"/>
    <rect x="70" y="110" width="60" height="44" rx="6" fill="${c.s}" opacity="0.6"/>`,
  shoe: (c: Pal) => `
    <path d="M16 130 Q14 92 30 86 L64 76 Q84 104 112 96 L150 110 Q186 118 188 140 V150 H16 Z" fill="${c.p}"/>
    <path d="M30 86 L64 76 Q84 104 112 96 L102 84 Q82 92 70 64 Z" fill="${c.s}"/>
    <rect x="12" y="144" width="180" height="18" rx="9" fill="${c.l}"/>
    <path d="M12 152 H192" stroke="${c.m}" stroke-width="3"/>
    <path d="M80 90 L92 100 M92 84 L102 94 M72 98 L84 106" stroke="${c.l}" stroke-width="4" stroke-linecap="round"/>
    <circle cx="34" cy="118" r="8" fill="${c.a}"/>`,
  sunglasses: (c: Pal) => `
    <path d="M22 82 L8 62 M178 82 L192 62" stroke="${c.d}" stroke-width="7" stroke-linecap="round"/>
    <rect x="18" y="76" width="74" height="60" rx="26" fill="${c.d}"/>
    <rect x="108" y="76" width="74" height="60" rx="26" fill="${c.d}"/>
    <rect x="25" y="83" width="60" height="46" rx="20" fill="${c.p}"/>
    <rect x="115" y="83" width="60" height="46" rx="20" fill="${c.p}"/>
    <path d="M90 92 Q100 82 110 92" stroke="${c.d}" stroke-width="7" fill="none"/>
    <path d="M34 92 L48 104 M124 92 L138 104" stroke="${c.l}" stroke-width="5" stroke-linecap="round" opacity="0.6"/>`,
  scarf: (c: Pal) => {
    const tail = (x: number, y: number, h: number, rot: number) => `<g transform="rotate(${rot} ${x + 18} ${y})">
      <rect x="${x}" y="${y}" width="36" height="${h}" rx="4" fill="${c.p}"/>
      <rect x="${x}" y="${y + h - 34}" width="36" height="8" fill="${c.a}"/><rect x="${x}" y="${y + h - 20}" width="36" height="6" fill="${c.l}"/>
      ${[4, 11, 18, 25, 32].map((dx) => `<path d="M${x + dx} ${y + h} v14" stroke="${c.s}" stroke-width="3" stroke-linecap="round"/>`).join('')}</g>`;
    return `
    <path d="M44 52 Q100 12 156 52" stroke="${c.s}" stroke-width="26" fill="none" stroke-linecap="round"/>
    <path d="M44 52 Q100 104 156 52" stroke="${c.p}" stroke-width="30" fill="none" stroke-linecap="round"/>
    <path d="M60 66 Q100 90 140 66" stroke="${c.a}" stroke-width="5" fill="none"/>
    ${tail(70, 84, 92, 8)}${tail(98, 88, 80, -10)}
    <rect x="84" y="70" width="34" height="30" rx="10" fill="${c.s}"/>`;
  },
  guitar: (c: Pal) => `<g transform="rotate(-35 100 100)">
    <rect x="92" y="10" width="16" height="100" fill="${c.d}"/>
    <rect x="86" y="0" width="28" height="24" rx="6" fill="${c.s}"/>
    <circle cx="100" cy="112" r="30" fill="${c.p}"/>
    <circle cx="100" cy="160" r="40" fill="${c.p}"/>
    <circle cx="100" cy="124" r="13" fill="${c.d}"/>
    <rect x="86" y="160" width="28" height="8" rx="3" fill="${c.d}"/>
    <path d="M96 20 V162 M100 20 V162 M104 20 V162" stroke="${c.l}" stroke-width="1.5"/></g>`,
  ukulele: (c: Pal) => `<g transform="rotate(30 100 100)">
    <rect x="93" y="14" width="14" height="96" fill="${c.d}"/>
    <rect x="88" y="2" width="24" height="20" rx="6" fill="${c.s}"/>
    <circle cx="100" cy="118" r="24" fill="${c.a}"/>
    <circle cx="100" cy="156" r="32" fill="${c.a}"/>
    <circle cx="100" cy="128" r="10" fill="${c.d}"/>
    <rect x="88" y="156" width="24" height="7" rx="3" fill="${c.d}"/>
    <path d="M97 20 V158 M103 20 V158" stroke="${c.l}" stroke-width="1.5"/></g>`,
  record: (c: Pal) => `
    <rect x="8" y="30" width="120" height="140" rx="6" fill="${c.p}" transform="rotate(-6 68 100)"/>
    <rect x="30" y="60" width="50" height="50" rx="25" fill="${c.a}" transform="rotate(-6 68 100)"/>
    <circle cx="120" cy="104" r="72" fill="#1d1d22"/>
    ${[64, 56, 48, 40].map((r) => `<circle cx="120" cy="104" r="${r}" fill="none" stroke="#34343c" stroke-width="2"/>`).join('')}
    <circle cx="120" cy="104" r="26" fill="${c.a}"/>
    <circle cx="120" cy="104" r="4" fill="${c.l}"/>
    <path d="M84 62 A56 56 0 0 1 120 48" stroke="#ffffff" stroke-width="4" opacity="0.25" fill="none"/>`,
  strings: (c: Pal) => `
    <rect x="40" y="24" width="120" height="156" rx="12" fill="${c.p}"/>
    <circle cx="100" cy="96" r="46" fill="none" stroke="#d9b15c" stroke-width="4"/>
    <circle cx="100" cy="96" r="38" fill="none" stroke="#d9b15c" stroke-width="3"/>
    <circle cx="100" cy="96" r="30" fill="none" stroke="#d9b15c" stroke-width="2"/>
    <circle cx="100" cy="96" r="14" fill="${c.s}"/>
    <rect x="58" y="152" width="84" height="12" rx="6" fill="${c.l}"/>`,
  turntable: (c: Pal) => `
    <rect x="14" y="48" width="172" height="120" rx="14" fill="${c.p}"/>
    <rect x="14" y="150" width="172" height="18" rx="8" fill="${c.s}"/>
    <circle cx="84" cy="104" r="50" fill="#1d1d22"/>
    <circle cx="84" cy="104" r="38" fill="none" stroke="#34343c" stroke-width="2"/>
    <circle cx="84" cy="104" r="15" fill="${c.a}"/><circle cx="84" cy="104" r="3" fill="${c.l}"/>
    <circle cx="158" cy="68" r="9" fill="${c.m}"/>
    <path d="M158 68 L156 118 L124 134" stroke="${c.l}" stroke-width="5" fill="none" stroke-linecap="round"/>
    <circle cx="162" cy="140" r="6" fill="${c.a}"/>`,
  mic: (c: Pal) => `
    <path d="M56 92 Q56 140 100 140 Q144 140 144 92" stroke="${c.d}" stroke-width="8" fill="none"/>
    <rect x="94" y="138" width="12" height="32" fill="${c.d}"/>
    <rect x="62" y="166" width="76" height="14" rx="7" fill="${c.d}"/>
    <rect x="70" y="18" width="60" height="104" rx="30" fill="${c.m}"/>
    ${[34, 46, 58, 70].map((y) => `<path d="M72 ${y} H128" stroke="${c.s}" stroke-width="3"/>`).join('')}
    <rect x="70" y="84" width="60" height="38" rx="0" fill="${c.p}"/>
    <path d="M70 84 H130 V92 Q130 122 100 122 Q70 122 70 92 Z" fill="${c.p}"/>
    <circle cx="100" cy="100" r="5" fill="${c.a}"/>`,
  kalimba: (c: Pal) => {
    const lens = [60, 70, 80, 90, 100, 90, 80, 70, 60];
    const tines = lens.map((len, i) => `<rect x="${44 + i * 13}" y="${42}" width="8" height="${len}" rx="3" fill="${c.l}"/>`).join('');
    return `<path d="M24 36 H176 L166 180 H34 Z" fill="#b9814f"/>
      <path d="M24 36 H176 L174 56 H26 Z" fill="#8a5a33"/>
      <circle cx="100" cy="152" r="16" fill="#3b2416"/>
      ${tines}<rect x="36" y="62" width="128" height="8" rx="3" fill="${c.m}"/>
      <circle cx="44" cy="160" r="5" fill="${c.a}"/><circle cx="156" cy="160" r="5" fill="${c.a}"/>`;
  },
  drum: (c: Pal) => `
    <path d="M40 60 V150 Q100 184 160 150 V60" fill="${c.p}"/>
    <path d="M40 70 L70 150 L100 76 L130 156 L160 70" stroke="${c.a}" stroke-width="4" fill="none"/>
    <ellipse cx="100" cy="60" rx="60" ry="20" fill="${c.l}"/>
    <ellipse cx="100" cy="60" rx="60" ry="20" fill="none" stroke="${c.s}" stroke-width="6"/>
    <path d="M40 148 Q100 180 160 148" stroke="${c.s}" stroke-width="8" fill="none"/>
    <path d="M60 10 L100 50 M150 6 L112 48" stroke="${c.d}" stroke-width="6" stroke-linecap="round"/>
    <circle cx="60" cy="10" r="6" fill="${c.d}"/><circle cx="150" cy="6" r="6" fill="${c.d}"/>`,
  giftcard: (c: Pal) => `
    <rect x="18" y="50" width="164" height="104" rx="14" fill="${c.p}"/>
    <rect x="62" y="50" width="16" height="104" fill="${c.a}"/>
    <rect x="18" y="92" width="164" height="14" fill="${c.a}"/>
    <ellipse cx="56" cy="88" rx="18" ry="10" fill="${c.a}" transform="rotate(-30 56 88)"/>
    <ellipse cx="84" cy="88" rx="18" ry="10" fill="${c.a}" transform="rotate(30 84 88)"/>
    <circle cx="70" cy="98" r="8" fill="${c.s}"/>
    <rect x="112" y="124" width="52" height="10" rx="5" fill="${c.l}" opacity="0.8"/>
    <rect x="130" y="66" width="34" height="24" rx="5" fill="${c.l}" opacity="0.7"/>`,
  ticket: (c: Pal) => `<g transform="rotate(-10 100 100)">
    <path d="M20 56 H180 V86 A14 14 0 0 0 180 114 V144 H20 V114 A14 14 0 0 0 20 86 Z" fill="${c.p}"/>
    <path d="M140 60 V140" stroke="${c.l}" stroke-width="4" stroke-dasharray="6 6"/>
    <path d="M78 74 L86 92 L106 94 L91 107 L96 126 L78 116 L60 126 L65 107 L50 94 L70 92 Z" fill="${c.a}"/>
    <rect x="150" y="78" width="18" height="44" rx="4" fill="${c.s}"/></g>`,
  giftbox: (c: Pal) => `
    <ellipse cx="78" cy="46" rx="26" ry="15" fill="${c.a}" transform="rotate(-25 78 46)"/>
    <ellipse cx="122" cy="46" rx="26" ry="15" fill="${c.a}" transform="rotate(25 122 46)"/>
    <rect x="38" y="84" width="124" height="96" rx="8" fill="${c.p}"/>
    <rect x="28" y="60" width="144" height="32" rx="8" fill="${c.s}"/>
    <rect x="90" y="60" width="20" height="120" fill="${c.a}"/>
    <circle cx="100" cy="58" r="11" fill="${c.a}"/>`,
  chefhat: (c: Pal) => `
    <circle cx="64" cy="78" r="32" fill="#ffffff"/><circle cx="100" cy="60" r="38" fill="#ffffff"/><circle cx="136" cy="78" r="32" fill="#ffffff"/>
    <rect x="56" y="80" width="88" height="60" fill="#ffffff"/>
    <rect x="56" y="130" width="88" height="40" rx="6" fill="${c.p}"/>
    <path d="M76 96 V128 M100 92 V128 M124 96 V128" stroke="${c.m}" stroke-width="3"/>
    <rect x="56" y="146" width="88" height="8" fill="${c.a}"/>`,
  balloon: (c: Pal) => `
    <path d="M100 12 C40 12 26 64 46 100 C58 122 80 132 86 144 H114 C120 132 142 122 154 100 C174 64 160 12 100 12 Z" fill="${c.p}"/>
    <path d="M100 12 C80 12 70 64 78 100 C82 120 88 132 92 144 H108 C112 132 118 120 122 100 C130 64 120 12 100 12 Z" fill="${c.a}"/>
    <path d="M100 12 C96 40 96 110 100 144" stroke="${c.l}" stroke-width="5" fill="none"/>
    <path d="M88 144 L84 162 M112 144 L116 162" stroke="${c.d}" stroke-width="3"/>
    <rect x="80" y="160" width="40" height="26" rx="4" fill="#b9814f"/>
    <path d="M80 168 H120" stroke="#8a5a33" stroke-width="3"/>`,
  wineglass: (c: Pal) => `
    <path d="M56 24 H104 Q108 86 80 100 Q52 86 56 24 Z" fill="${c.l}" opacity="0.85" transform="rotate(-10 80 100)"/>
    <path d="M57 54 H103 Q102 88 80 98 Q58 88 57 54 Z" fill="${hsl(345, 60, 38)}" transform="rotate(-10 80 100)"/>
    <rect x="76" y="98" width="7" height="66" fill="${c.l}" transform="rotate(-10 80 100)"/>
    <ellipse cx="92" cy="168" rx="24" ry="6" fill="${c.l}"/>
    <path d="M124 40 H168 L164 168 H128 Z" fill="${hsl(140, 40, 28)}"/>
    <rect x="136" y="14" width="20" height="30" rx="3" fill="${hsl(140, 40, 22)}"/>
    <rect x="130" y="96" width="32" height="40" rx="4" fill="${c.l}"/><circle cx="146" cy="116" r="8" fill="${c.a}"/>`,
  spa: (c: Pal) => `
    <ellipse cx="100" cy="150" rx="80" ry="22" fill="${c.s}"/>
    <ellipse cx="100" cy="132" rx="56" ry="18" fill="${c.m}"/>
    <ellipse cx="100" cy="108" rx="44" ry="16" fill="${c.d}"/>
    <ellipse cx="100" cy="88" rx="32" ry="13" fill="${c.m}"/>
    <path d="M100 22 Q124 48 100 72 Q76 48 100 22 Z" fill="${c.p}"/>
    <path d="M100 72 Q70 66 64 40 Q92 44 100 72 Z M100 72 Q130 66 136 40 Q108 44 100 72 Z" fill="${c.a}"/>`,
  vase: (c: Pal) => `
    <path d="M78 22 H122 V40 Q156 62 154 112 Q150 170 100 180 Q50 170 46 112 Q44 62 78 40 Z" fill="${c.p}"/>
    <rect x="74" y="18" width="52" height="10" rx="5" fill="${c.s}"/>
    <path d="M52 100 Q100 120 148 100" stroke="${c.a}" stroke-width="8" fill="none"/>
    <path d="M50 126 Q100 146 150 126" stroke="${c.l}" stroke-width="5" fill="none"/>
    <path d="M66 60 Q60 90 62 110" stroke="${c.l}" stroke-width="6" fill="none" opacity="0.4" stroke-linecap="round"/>`,
  key: (c: Pal) => `<g transform="rotate(-40 100 100)">
    <circle cx="60" cy="100" r="38" fill="${c.a}"/>
    <circle cx="60" cy="100" r="16" fill="${c.l}"/>
    <rect x="92" y="92" width="92" height="16" rx="4" fill="${c.a}"/>
    <rect x="150" y="106" width="12" height="22" rx="3" fill="${c.a}"/>
    <rect x="168" y="106" width="12" height="30" rx="3" fill="${c.a}"/></g>
    <circle cx="100" cy="100" r="86" fill="none" stroke="${c.p}" stroke-width="8" stroke-dasharray="18 12"/>`,
  mountain: (c: Pal) => `
    <path d="M6 176 L74 60 L118 132 L140 100 L194 176 Z" fill="${c.p}"/>
    <path d="M74 60 L94 94 L82 88 L72 100 L60 84 Z" fill="${c.l}"/>
    <path d="M140 100 L154 120 L140 116 L130 124 Z" fill="${c.l}"/>
    <path d="M74 60 L118 132 L100 176 H194 L140 100 L118 132" fill="${c.s}" opacity="0.5"/>
    <path d="M74 60 V24" stroke="${c.d}" stroke-width="4"/><path d="M74 24 L100 32 L74 40 Z" fill="${c.a}"/>
    <circle cx="160" cy="40" r="16" fill="${c.a}"/>`,
  flowers: (c: Pal) => {
    const flower = (x: number, y: number, col: string) =>
      [0, 72, 144, 216, 288]
        .map((r) => `<ellipse cx="${x}" cy="${y - 12}" rx="9" ry="14" fill="${col}" transform="rotate(${r} ${x} ${y})"/>`)
        .join('') + `<circle cx="${x}" cy="${y}" r="8" fill="#ffd866"/>`;
    return `
      <path d="M100 120 L70 60 M100 120 L100 44 M100 120 L132 62 M100 120 L52 92 M100 120 L150 94" stroke="#3f9a62" stroke-width="5"/>
      ${flower(70, 60, c.p)}${flower(100, 42, c.a)}${flower(132, 62, hsl(330, 65, 65))}${flower(52, 92, c.l)}${flower(150, 94, c.p)}
      <path d="M60 114 H140 L120 184 H80 Z" fill="${c.s}"/>
      <path d="M60 114 L100 150 L140 114" stroke="${c.a}" stroke-width="6" fill="none"/>`;
  },
  telescope: (c: Pal) => `
    <path d="M100 112 L64 186 M100 112 L136 186 M100 112 V186" stroke="${c.d}" stroke-width="6"/>
    <g transform="rotate(-28 100 100)">
      <rect x="30" y="84" width="120" height="34" rx="8" fill="${c.p}"/>
      <rect x="146" y="78" width="26" height="46" rx="6" fill="${c.s}"/>
      <rect x="12" y="92" width="22" height="18" rx="4" fill="${c.d}"/>
      <rect x="80" y="84" width="10" height="34" fill="${c.a}"/></g>
    <circle cx="100" cy="112" r="9" fill="${c.a}"/>
    <path d="M160 20 l4 10 l10 4 l-10 4 l-4 10 l-4 -10 l-10 -4 l10 -4 Z" fill="#fff3b0"/>
    <circle cx="40" cy="34" r="4" fill="#fff3b0"/><circle cx="128" cy="10" r="3" fill="#fff3b0"/>`,
  notebook: (c: Pal) => `
    <rect x="52" y="22" width="112" height="160" rx="10" fill="${c.p}"/>
    <rect x="48" y="26" width="112" height="160" rx="10" fill="${c.s}" opacity="0.25"/>
    <rect x="50" y="22" width="112" height="160" rx="10" fill="${c.p}"/>
    <rect x="136" y="22" width="10" height="160" fill="${c.d}"/>
    <rect x="66" y="50" width="56" height="34" rx="4" fill="${c.l}"/>
    <rect x="118" y="178" width="10" height="20" fill="${c.a}"/>
    <path d="M118 198 l5 -6 l5 6" fill="${c.a}"/>`,
  pen: (c: Pal) => `<g transform="rotate(-45 100 100)">
    <path d="M12 100 L40 90 H50 V110 H40 Z" fill="#d9b15c"/>
    <path d="M12 100 L40 96 V104 Z" fill="${c.d}"/>
    <rect x="48" y="88" width="70" height="24" rx="6" fill="${c.p}"/>
    <rect x="112" y="86" width="78" height="28" rx="10" fill="${c.s}"/>
    <rect x="116" y="86" width="6" height="28" fill="#d9b15c"/>
    <rect x="130" y="80" width="50" height="6" rx="3" fill="#d9b15c"/></g>
    <path d="M40 178 Q80 150 120 176 T186 170" stroke="${c.d}" stroke-width="4" fill="none" stroke-linecap="round"/>`,
  pens: (c: Pal) => {
    const cols = [c.p, c.a, hsl(350, 65, 58), hsl(200, 65, 55), hsl(140, 45, 50)];
    return cols
      .map(
        (col, i) => `<g transform="rotate(${-20 + i * 10} 100 180)">
        <rect x="92" y="34" width="16" height="120" rx="6" fill="${col}"/>
        <path d="M92 154 H108 L100 176 Z" fill="${c.m}"/><rect x="104" y="40" width="4" height="40" rx="2" fill="${c.l}"/></g>`,
      )
      .join('');
  },
  planner: (c: Pal) => {
    let grid = '';
    for (let r = 0; r < 4; r++)
      for (let k = 0; k < 5; k++)
        grid += `<rect x="${50 + k * 21}" y="${84 + r * 21}" width="16" height="16" rx="3" fill="${r === 1 && k === 3 ? c.a : c.m}"/>`;
    return `<rect x="36" y="40" width="128" height="144" rx="12" fill="${c.p}"/>
      <rect x="42" y="70" width="116" height="106" rx="6" fill="${c.l}"/>${grid}
      ${[62, 86, 110, 134].map((x) => `<rect x="${x}" y="28" width="8" height="26" rx="4" fill="${c.d}"/>`).join('')}`;
  },
  palette: (c: Pal) => {
    const hues = [0, 30, 55, 120, 190, 225, 280, 330];
    const pans = hues
      .map(
        (h, i) =>
          `<rect x="${32 + (i % 4) * 30}" y="${70 + Math.floor(i / 4) * 36}" width="24" height="28" rx="4" fill="${hsl(h, 70, 52)}"/>`,
      )
      .join('');
    return `<rect x="20" y="56" width="144" height="92" rx="10" fill="${c.m}"/>${pans}
      <rect x="20" y="144" width="144" height="10" rx="4" fill="${c.s}"/>
      <g transform="rotate(-50 160 120)"><rect x="110" y="114" width="80" height="10" rx="5" fill="${c.p}"/>
      <rect x="96" y="114" width="16" height="10" fill="${c.m}"/><path d="M96 114 L78 119 L96 124 Z" fill="${c.d}"/></g>`;
  },
  tape: (c: Pal) => {
    const roll = (x: number, y: number, r: number, col: string) =>
      `<circle cx="${x}" cy="${y}" r="${r}" fill="${col}"/><circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="${c.l}"/><circle cx="${x}" cy="${y}" r="${r * 0.55}" fill="none" stroke="${c.m}" stroke-width="3"/>`;
    const stripes = (x: number, y: number, r: number) =>
      [0, 60, 120, 180, 240, 300]
        .map(
          (a) =>
            `<circle cx="${(x + Math.cos((a * Math.PI) / 180) * r * 0.78).toFixed(1)}" cy="${(y + Math.sin((a * Math.PI) / 180) * r * 0.78).toFixed(1)}" r="${(r * 0.09).toFixed(1)}" fill="${c.l}" opacity="0.8"/>`,
        )
        .join('');
    return (
      roll(60, 132, 46, c.p) + stripes(60, 132, 46) + roll(140, 132, 40, c.a) + roll(100, 60, 42, hsl(330, 55, 70)) + stripes(100, 60, 42)
    );
  },
  envelope: (c: Pal) => `
    <rect x="24" y="66" width="140" height="96" rx="6" fill="${c.p}" transform="rotate(-8 94 114)"/>
    <rect x="36" y="52" width="144" height="100" rx="8" fill="${c.l}"/>
    <path d="M36 56 L108 110 L180 56" fill="none" stroke="${c.m}" stroke-width="4"/>
    <path d="M36 150 L88 102 M180 150 L128 102" stroke="${c.m}" stroke-width="3"/>
    <circle cx="108" cy="110" r="16" fill="${hsl(355, 60, 45)}"/>
    <circle cx="108" cy="110" r="8" fill="${hsl(355, 60, 35)}"/>`,
  pencilcup: (c: Pal) => {
    const pencil = (x: number, h: number, col: string, rot: number) =>
      `<g transform="rotate(${rot} ${x + 7} 150)"><rect x="${x}" y="${150 - h}" width="14" height="${h}" fill="${col}"/>
       <path d="M${x} ${150 - h} L${x + 7} ${136 - h} L${x + 14} ${150 - h} Z" fill="#f3d3a5"/>
       <path d="M${x + 4} ${143 - h} L${x + 7} ${136 - h} L${x + 10} ${143 - h} Z" fill="${c.d}"/></g>`;
    return (
      pencil(66, 110, c.a, -12) +
      pencil(86, 124, hsl(200, 65, 55), -3) +
      pencil(106, 104, hsl(350, 65, 58), 8) +
      pencil(122, 92, hsl(140, 45, 50), 16) +
      `<rect x="52" y="92" width="96" height="92" rx="10" fill="${c.p}"/>
       <rect x="52" y="92" width="96" height="12" rx="6" fill="${c.s}"/>
       <rect x="64" y="120" width="8" height="50" rx="4" fill="${c.l}" opacity="0.35"/>`
    );
  },
} satisfies Record<string, IconDraw>;
