/**
 * The catalogue's one seeded PRNG (mulberry32) and the helpers drawing from it. `rand` is a
 * single shared stream: the generator's output depends on the order of its calls, so every
 * module draws from this one instance.
 */
const SEED = 0x6c1f7;

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
export const rand = mulberry32(SEED);
export const randInt = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
export const pick = <T>(arr: readonly T[]): T => arr[Math.floor(rand() * arr.length)]!;
export function shuffle<T>(arr: readonly T[]): T[] {
  const out = [...arr];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
/** FNV-1a: a stable per-string seed. */
export function hashStr(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}
/** Realistic retail price endings. */
export function retailPrice(lo: number, hi: number): string {
  const base = lo + rand() * (hi - lo);
  const endings = [0.99, 0.99, 0.99, 0.95, 0.49, 0.0];
  let whole = Math.floor(base);
  if (whole >= 100 && rand() < 0.6) whole = Math.floor(whole / 5) * 5 + 4; // e.g. 149.99
  const cents = pick(endings);
  const value = Math.max(lo, whole + cents);
  return value.toFixed(2);
}
