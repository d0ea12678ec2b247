// THE desktop IPC contract: every channel between the preload and the main process, with the
// zod schema of its payload and of its answer. The main process (`electron/main/ipc.ts`) parses
// every payload with these before acting; the preload (`electron/preload/platform.ts`) is typed
// against them. Blobs cross as bytes (`Uint8Array`). The session token itself never crosses to
// the page: `token:get` only answers whether one is stored.
import { z } from 'zod';
import type { EventChannel, InvokeChannel } from './names.js';

export { APP_ORIGIN, INVOKE_CHANNELS } from './names.js';
export type { EventChannel, InvokeChannel } from './names.js';

/** Largest image the cache accepts through IPC (one image). */
export const MAX_IPC_IMAGE_BYTES = 10 * 1024 * 1024;
/** Most images one `images:put` may carry (a wishlist has a handful; the share image is one). */
export const MAX_IPC_IMAGES = 50;
/** Most bytes one `images:put` may carry in all. */
export const MAX_IPC_PUT_BYTES = 50 * 1024 * 1024;
/** Largest file `save-file` writes (share images, money-history CSVs). */
export const MAX_SAVE_BYTES = 25 * 1024 * 1024;

const bytes = (max: number) =>
  z
    .custom<Uint8Array>((v) => v instanceof Uint8Array, { message: 'bytes (a Uint8Array)' })
    .refine((b) => b.byteLength <= max, { message: `at most ${max} bytes` });

const httpUrl = z
  .string()
  .max(2048)
  .refine(
    (s) => {
      try {
        const { protocol } = new URL(s);
        return protocol === 'https:' || protocol === 'http:';
      } catch {
        return false;
      }
    },
    { message: 'an http(s) URL' },
  );

/** An in-app route: an absolute path of the renderer (`/messages/abc`), never a URL. */
export const routeSchema = z
  .string()
  .min(1)
  .max(512)
  .refine((s) => s.startsWith('/') && !s.startsWith('//') && !s.includes('\\'), { message: 'an in-app path' });

export const imageStoreSchema = z.enum(['shareImages', 'wishlistImages']);
export const cacheUsernameSchema = z.string().min(1).max(64);

/** One cached image as it crosses IPC; `type` is the blob's MIME type when it had one. */
export const ipcImageSchema = z.strictObject({
  url: z.string().min(1).max(2048),
  bytes: bytes(MAX_IPC_IMAGE_BYTES),
  type: z.string().max(100).optional(),
});

export const tokenSetPayload = z.string().min(1).max(4096).nullable();
export const imagesGetPayload = z.strictObject({ store: imageStoreSchema, username: cacheUsernameSchema });
export const imagesPutPayload = imagesGetPayload.extend({
  images: z
    .array(ipcImageSchema)
    .max(MAX_IPC_IMAGES)
    .refine((images) => images.reduce((sum, i) => sum + i.bytes.byteLength, 0) <= MAX_IPC_PUT_BYTES, {
      message: `at most ${MAX_IPC_PUT_BYTES} bytes in all`,
    }),
});
/** `name` is a suggested file name only: main keeps its base name and the user picks the folder. */
export const saveFilePayload = z.strictObject({ name: z.string().min(1).max(255), bytes: bytes(MAX_SAVE_BYTES) });
export const openUrlPayload = z.strictObject({ url: httpUrl });
export const notifyPayload = z.strictObject({
  title: z.string().min(1).max(200),
  body: z.string().max(1000),
  /** Same tag replaces; also what `notification-click` sends back so the page runs its onClick. */
  tag: z.string().min(1).max(200).optional(),
  /** Where a click opens the app, when the page has no onClick for it. */
  route: routeSchema.optional(),
});
export const unreadCountsPayload = z.strictObject({
  messages: z.number().int().min(0).max(1_000_000),
  notifications: z.number().int().min(0).max(1_000_000),
});
export const permissionAnswer = z.enum(['granted', 'denied', 'default', 'unsupported']);
export const saveFileAnswer = z.strictObject({ saved: z.boolean() });

const none = z.undefined();

/** Renderer → main: `ipcRenderer.invoke(channel, payload)` answers `answer`. */
export const invokeContract = {
  /** Answers whether a session token is stored (never the token). */
  'token:get': { payload: none, answer: z.boolean() },
  /** Stores the token in the keychain; null = logout: deletes it and clears the image cache. */
  'token:set': { payload: tokenSetPayload, answer: none },
  'images:get': { payload: imagesGetPayload, answer: z.array(ipcImageSchema) },
  'images:put': { payload: imagesPutPayload, answer: none },
  'images:clear': { payload: none, answer: none },
  /** Native save dialog; `saved: false` when the user cancelled (nothing written). */
  'save-file': { payload: saveFilePayload, answer: saveFileAnswer },
  'open-url': { payload: openUrlPayload, answer: none },
  notify: { payload: notifyPayload, answer: none },
  'notifications:permission': { payload: none, answer: permissionAnswer },
  /** Live unread counts from the socket, for the tray and the badge. */
  'unread-counts': { payload: unreadCountsPayload, answer: none },
} as const satisfies Record<InvokeChannel, { payload: z.ZodType; answer: z.ZodType }>;

/** Main → renderer: `webContents.send(channel, payload)`. */
export const eventContract = {
  /** Open the app at this route (deep link, tray menu, notification with a route). */
  navigate: z.strictObject({ route: routeSchema }),
  /** A notification shown with this tag was clicked (the window is focused first). */
  'notification-click': z.strictObject({ tag: z.string().min(1).max(200) }),
} as const satisfies Record<EventChannel, z.ZodType>;

export type InvokeContract = typeof invokeContract;
export type Payload<C extends InvokeChannel> = z.input<InvokeContract[C]['payload']>;
export type ParsedPayload<C extends InvokeChannel> = z.output<InvokeContract[C]['payload']>;
export type Answer<C extends InvokeChannel> = z.output<InvokeContract[C]['answer']>;
export type EventPayload<C extends EventChannel> = z.output<(typeof eventContract)[C]>;

export type IpcImage = z.output<typeof ipcImageSchema>;
export type ImageStore = z.output<typeof imageStoreSchema>;
export type UnreadCounts = z.output<typeof unreadCountsPayload>;
export type NotifyRequest = z.output<typeof notifyPayload>;

/** The typed `ipcRenderer.invoke` of the contract (no-payload channels take `undefined`). */
export type Invoke = <C extends InvokeChannel>(channel: C, payload: Payload<C>) => Promise<Answer<C>>;
/** The typed `ipcRenderer.on` of the contract, returning an unsubscribe. */
export type On = <C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void) => () => void;
