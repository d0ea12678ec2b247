/** Colour helpers: HSL to hex and the six-colour palette an icon is drawn with. */
export function hsl(h: number, s: number, l: number): string {
  h = ((h % 360) + 360) % 360;
  s /= 100;
  l /= 100;
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  const hex = (x: number) =>
    Math.round(x * 255)
      .toString(16)
      .padStart(2, '0');
  return `#${hex(f(0))}${hex(f(8))}${hex(f(4))}`;
}

export interface Pal {
  p: string; // primary
  s: string; // secondary (darker primary)
  a: string; // accent
  d: string; // dark
  l: string; // light
  m: string; // metal / neutral grey
}

export function palette(hue: number): Pal {
  const ph = hue + 165;
  return {
    p: hsl(ph, 58, 52),
    s: hsl(ph, 52, 36),
    a: hsl(hue + 35, 88, 62),
    d: hsl(ph + 20, 22, 20),
    l: hsl(hue, 40, 97),
    m: hsl(ph, 8, 78),
  };
}

/** An icon: shapes in a 200x200 local box, no text; `v` is a per-product variation number. */
export type IconDraw = (c: Pal, v: number) => string;
