/** A numeric command-line value within [min, max], or an error naming the flag. */
export function numberArg(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${name} must be a number from ${min} to ${max}`);
  return n;
}
