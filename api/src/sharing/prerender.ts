/**
 * Share images drawn ahead of the first request: right after a link is created or a wishlist
 * saved, the image the share modal shows first (the story) and the link preview's card are drawn
 * into the renderer's cache, one at a time, after the answer has gone out. Nothing depends on it:
 * an image that was not drawn (a restart, another process, a change since) is drawn on request.
 */
import type { Deps } from '../deps.js';
import type { ShareRenderer } from './render.js';
import { createShareRenderer, linkImage, wishlistImage, type ShareImage } from './service.js';
import type { ShareFormat, ShareKind, ShareTemplate } from './urls.js';

type ShareDeps = Pick<Deps, 'db' | 'config' | 'log'>;

/** The template the share modal opens on, in the order it and a link preview ask for them. */
const TEMPLATE: ShareTemplate = 'standard';
const FORMATS: readonly ShareFormat[] = ['story', 'card'];

const renderers = new WeakMap<ShareDeps['config'], ShareRenderer>();

/** The app's one share renderer (its cache and counters), shared by the image routes and the drawing ahead. */
export function shareRendererOf(deps: Pick<Deps, 'config'>): ShareRenderer {
  let renderer = renderers.get(deps.config);
  if (!renderer) renderers.set(deps.config, (renderer = createShareRenderer(deps.config)));
  return renderer;
}

interface Queue {
  /** `kind:username` waiting to be drawn, in order; one entry per subject. */
  waiting: Set<string>;
  running: boolean;
}
const queues = new WeakMap<ShareDeps['config'], Queue>();

/**
 * Queues the drawing of `username`'s link or wishlist images and answers at once. The queue runs
 * on a later turn of the event loop, so the answer being sent goes out first.
 */
export function drawShareImagesSoon(deps: ShareDeps, kind: ShareKind, username: string): void {
  if (!deps.config.shareImagesAtCreation) return;
  let queue = queues.get(deps.config);
  if (!queue) queues.set(deps.config, (queue = { waiting: new Set(), running: false }));
  queue.waiting.add(`${kind}:${username}`);
  if (!queue.running) {
    queue.running = true;
    setImmediate(() => void drain(deps, queue));
  }
}

async function drain(deps: ShareDeps, queue: Queue): Promise<void> {
  try {
    for (let next = first(queue.waiting); next !== undefined; next = first(queue.waiting)) {
      queue.waiting.delete(next);
      const [kind, username] = next.split(/:(.*)/s) as [ShareKind, string];
      await drawAll(deps, kind, username);
    }
  } finally {
    queue.running = false;
  }
}

const first = (set: Set<string>): string | undefined => set.values().next().value;

async function drawAll(deps: ShareDeps, kind: ShareKind, username: string): Promise<void> {
  const renderer = shareRendererOf(deps);
  for (const format of FORMATS) {
    try {
      // Read anew for each format: the link may have changed or closed since it was queued.
      const image: ShareImage =
        kind === 'link'
          ? await linkImage(deps.db, deps.config, username, TEMPLATE, format)
          : await wishlistImage(deps.db, deps.config, username, TEMPLATE, format);
      await renderer.png(image.etag, image.content, image.template, image.format);
    } catch (err) {
      // A link gone or closed meanwhile, or a server closing: its request draws it, or answers 404/410.
      deps.log.debug({ err, kind, username, format }, 'share image not drawn ahead');
      return;
    }
  }
}
