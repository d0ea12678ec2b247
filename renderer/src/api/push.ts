import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PushDevice, PushSubscriptionBody } from '../../../api/contract/push';
import { call } from './client';

/** The server's VAPID public key, for pushManager.subscribe. */
export function getPushPublicKey() {
  return call('GET /api/push/public-key', {});
}

/** The signed-in user's devices that get notifications. */
export function getPushDevices(signal?: AbortSignal) {
  return call('GET /api/push/subscriptions', { signal });
}

export const pushKeys = { devices: ['push-devices'] as const };

export function usePushDevicesQuery() {
  return useQuery({ queryKey: pushKeys.devices, queryFn: ({ signal }) => getPushDevices(signal) });
}

/** This browser's device id as the server answered it when it subscribed: marks 'This device'. */
const THIS_DEVICE_KEY = 'giftlink.pushDevice';

export function rememberThisDevice(id: string): void {
  try {
    localStorage.setItem(THIS_DEVICE_KEY, id);
  } catch {
    // Without storage the device is only not marked.
  }
}

function thisDeviceId(): string | null {
  try {
    return localStorage.getItem(THIS_DEVICE_KEY);
  } catch {
    return null;
  }
}

function forgetThisDevice(): void {
  try {
    localStorage.removeItem(THIS_DEVICE_KEY);
  } catch {
    // Nothing was stored.
  }
}

/**
 * Logout: this browser stops getting pushes. The server is told first, while the session still
 * holds (its end deletes the device too), then the browser's own subscription ends.
 */
export async function endThisBrowsersPush(): Promise<void> {
  const subscription = await currentPushSubscription().catch(() => null);
  if (!subscription) return;
  const id = thisDeviceId();
  if (id) await call('DELETE /api/push/subscriptions/:id', { params: { id } }).catch(() => undefined);
  await subscription.unsubscribe().catch(() => false);
  forgetThisDevice();
}

/** This browser's device id, while the browser still holds its subscription; null otherwise. */
export function useThisPushDevice(enabled: boolean) {
  return useQuery({
    queryKey: [...pushKeys.devices, 'this'],
    enabled,
    queryFn: async () => {
      if (!(await currentPushSubscription())) return null;
      return thisDeviceId();
    },
  });
}

/** This browser's subscription, or none: what `useTurnOnPush` made before. */
export async function currentPushSubscription(): Promise<PushSubscription | null> {
  if (!('serviceWorker' in navigator)) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** Whether this browser can get pushes at all. */
export const pushSupported = (): boolean =>
  typeof window !== 'undefined' &&
  window.isSecureContext &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

const keyBytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const raw = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

/**
 * Subscribes this browser with the server's key and tells the server. Permission must have been
 * granted (asked from the click, which `useTurnOnPush` does before anything else).
 */
async function subscribeThisBrowser(): Promise<PushDevice> {
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  const { publicKey } = await getPushPublicKey();
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
  return call('POST /api/push/subscriptions', { body: subscription.toJSON() as PushSubscriptionBody });
}

/** 'Turn on notifications on this device': permission, then the subscription; `denied` when the browser says no. */
export function useTurnOnPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<PushDevice | 'denied'> => {
      // Straight from the click, so the browser sees the user's gesture.
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return 'denied';
      const device = await subscribeThisBrowser();
      rememberThisDevice(device.id);
      return device;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKeys.devices }),
  });
}

/** Removes a device; this browser's own subscription is ended too when it is this one. */
export function useRemovePushDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, thisDevice }: { id: string; thisDevice: boolean }) => {
      await call('DELETE /api/push/subscriptions/:id', { params: { id } });
      if (thisDevice) await (await currentPushSubscription())?.unsubscribe();
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: pushKeys.devices }),
  });
}
