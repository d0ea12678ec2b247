import { useEffect, useState } from 'react';
import { prefersReducedMotion } from './device';
import { startTyping, type TypedFrame } from './typing';

/**
 * The share text typed out (80 ms a character, the link 50 ms), at once under
 * `prefers-reduced-motion`. The whole text sits underneath, invisible, so the box never grows
 * while typing; assistive technology reads the whole text once.
 */
export function TypedText({ text, link }: { text: string; link: string }) {
  const [frame, setFrame] = useState<TypedFrame>({ text: '', link: '', done: false });
  useEffect(() => startTyping(text, link, setFrame, { reducedMotion: prefersReducedMotion() }), [text, link]);

  return (
    <div className="share-typed" data-done={frame.done}>
      <p className="share-typed__full" aria-hidden="true">
        {text} <span className="share-typed__link">{link}</span>
      </p>
      <p className="share-typed__shown" aria-hidden="true">
        {frame.text}
        {frame.link ? ' ' : ''}
        {frame.link ? <span className="share-typed__link">{frame.link}</span> : null}
        {frame.done ? null : <span className="share-typed__caret" />}
      </p>
      <p className="visually-hidden">{`${text} ${link}`}</p>
    </div>
  );
}
