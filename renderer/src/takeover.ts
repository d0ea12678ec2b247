import { useLayoutEffect, useReducer } from 'react';

/**
 * How the app takes a shared page over from the server's markup without blocking the phone's main
 * thread for long (Lighthouse's Total Blocking Time). Preact renders a tree in one go, and
 * the whole app at once is one long task on a slow phone; so the app is rendered in steps, each in a
 * task of its own, into a hidden element beside the server's markup, which stays on screen meanwhile:
 * first the app's frame (router, session, layout), then its bars (top bar, visitor banner), then the
 * page (`useHeld`), then the finished app takes the markup's place in one DOM change. Nobody sees a
 * half-built page, and nothing typed into the markup's fields is lost (`carryInput`).
 */

/** Lets the browser run what waits (a paint, input) before the next step: a new task. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** What renders in the takeover's later steps, one step each, in this order (`useHeld`). */
const PARTS = ['bars', 'page'] as const;
export type Part = (typeof PARTS)[number];

/** How many of PARTS render: all of them, except during a takeover. */
let shown: number = PARTS.length;
const listeners = new Set<() => void>();

function show(count: number): void {
  shown = count;
  for (const listener of [...listeners]) listener();
}

/**
 * True while `part` renders nothing yet (an earlier step of the takeover); re-renders it once it
 * may. It listens from a layout effect, which Preact runs as the render that shows it ends: the
 * next step, a task later, always finds it listening (an effect, run at the next frame, may not).
 */
export function useHeld(part: Part): boolean {
  const index = PARTS.indexOf(part);
  const held = index >= shown;
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useLayoutEffect(() => {
    const listener = () => {
      if (held !== index >= shown) rerender();
    };
    listeners.add(listener);
    listener(); // a step taken between the render and now
    return () => void listeners.delete(listener);
  }, [index, held]);
  return held;
}

/**
 * Renders the app (`render` into the element it is given) in place of `root`'s server markup, in
 * steps of a task each, and answers once the app is on screen as `#root`. The markup's `#root`
 * keeps its attributes until then (the loader's held click, api/src/http/shared-page.ts): they move
 * to the app's element with its id.
 */
export async function takeOver(root: HTMLElement, render: (into: HTMLElement) => void): Promise<void> {
  const app = document.createElement('div');
  app.hidden = true;
  root.after(app);
  shown = 0;
  render(app);
  for (let step = 1; step <= PARTS.length; step++) {
    await nextTask();
    show(step);
  }
  await nextTask();
  // In the same task as the swap: a key pressed in between would be lost. The app's fields show
  // the value at once, and its state has it before the next paint.
  const focus = carryInput(root, app);
  for (const { name, value } of [...root.attributes]) app.setAttribute(name, value);
  root.remove();
  app.hidden = false;
  focus();
  // A form sent before the app came (the loader held it, api/src/http/shared-page.ts) is sent by
  // the app's own form now, once its state has what was carried in.
  const held = app.getAttribute('data-held-submit');
  if (held === null) return;
  app.removeAttribute('data-held-submit');
  await nextTask();
  app.querySelectorAll('form')[Number(held)]?.requestSubmit();
}

/**
 * What a visitor typed into the markup's fields before the app came (the login page's form) moves
 * into the app's fields of the same id, through an `input` event, as if typed there, so the app's
 * state has it. Answers what puts the focus (and the caret) back where it was, once the app's
 * fields are on screen.
 */
function carryInput(from: HTMLElement, to: HTMLElement): () => void {
  const counterpart = (field: HTMLInputElement) => to.querySelector<HTMLInputElement>(`input#${CSS.escape(field.id)}`);
  for (const field of from.querySelectorAll<HTMLInputElement>('input[id]')) {
    const target = counterpart(field);
    if (!target || field.value === '' || target.value === field.value) continue;
    target.value = field.value;
    target.dispatchEvent(new Event('input', { bubbles: true }));
  }
  const active = document.activeElement;
  if (!(active instanceof HTMLInputElement) || !active.id || !from.contains(active)) return () => undefined;
  const { selectionStart, selectionEnd } = active;
  return () => {
    const target = counterpart(active);
    if (!target) return;
    target.focus();
    // Email fields have no caret position to set (an InvalidStateError): the browser's own end then.
    try {
      if (selectionStart !== null && selectionEnd !== null) target.setSelectionRange(selectionStart, selectionEnd);
    } catch {
      /* not a text field */
    }
  };
}
