import { TYPE_LINK_MS, TYPE_TEXT_MS } from '../../../../api/contract/share';

/** What the typing animation shows at one moment. */
export interface TypedFrame {
  text: string;
  link: string;
  done: boolean;
}

export interface TypingOptions {
  /** Under `prefers-reduced-motion` everything shows at once. */
  reducedMotion?: boolean;
}

/**
 * Types `text` one character every 80 ms, then `link` one every 50 ms (PRODUCT.md: the share modal's
 * typing animation), calling `onFrame` after each character. The first frame (nothing typed, or
 * everything under reduced motion) is delivered synchronously. Returns a function that stops it.
 * Plain timers, no DOM: tested with fake timers.
 */
export function startTyping(
  text: string,
  link: string,
  onFrame: (frame: TypedFrame) => void,
  { reducedMotion = false }: TypingOptions = {},
): () => void {
  if (reducedMotion || (text.length === 0 && link.length === 0)) {
    onFrame({ text, link, done: true });
    return () => {};
  }
  // Characters, not UTF-16 units: an emoji or accented letter never shows half-typed.
  const textChars = Array.from(text);
  const linkChars = Array.from(link);
  let typedText = 0;
  let typedLink = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const frame = (): TypedFrame => ({
    text: textChars.slice(0, typedText).join(''),
    link: linkChars.slice(0, typedLink).join(''),
    done: typedText === textChars.length && typedLink === linkChars.length,
  });

  const next = () => {
    if (stopped) return;
    if (typedText < textChars.length) {
      timer = setTimeout(() => {
        typedText += 1;
        onFrame(frame());
        next();
      }, TYPE_TEXT_MS);
    } else if (typedLink < linkChars.length) {
      timer = setTimeout(() => {
        typedLink += 1;
        onFrame(frame());
        next();
      }, TYPE_LINK_MS);
    }
  };

  onFrame(frame());
  next();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
  };
}
