import { useLayoutEffect, useReducer } from 'react';

/**
 * How the app takes a shared page over from the server's markup without blocking the phone's main
 * thread for long (issue 15: Lighthouse's Total Blocking Time). Preact renders a tree in one go, and
 * the whole app at once is one long task on a slow phone; so the app is rendered in steps, each in a
 * task of its own, into a hidden element beside the server's markup, which stays on screen meanwhile:
 * first the app's frame (router, session, layout), then its bars (top bar, visitor banner), then the
 * page (`useHeld`), then the finished app takes the markup's place in one DOM change. Nobody sees a
 * half-built page.
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
  for (const { name, value } of [...root.attributes]) app.setAttribute(name, value);
  root.remove();
  app.hidden = false;
}
