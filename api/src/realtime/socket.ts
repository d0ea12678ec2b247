import type { IncomingHttpHeaders } from 'node:http';
import { spend } from '../http/rate-limit.js';
import type { Socket } from 'socket.io';
import { SESSION_COOKIE } from '../auth/tokens.js';
import { missedMessages, sendMessage } from '../conversations/service.js';
import { presentMessage } from '../conversations/presenter.js';
import { LastMessageIdBody, SendMessageBody } from '../conversations/schemas.js';
import type { Deps } from '../deps.js';
import { AppError } from '../errors.js';
import { parse } from '../http/validate.js';
import { UserEntity } from '../users/entity.js';
import {
  userRoom,
  type ClientToServerEvents,
  type InterServerEvents,
  type RealtimeErrorBody,
  type ServerToClientEvents,
  type SocketData,
} from './events.js';
import { unreadCounts, type Realtime, type RealtimeServer } from './hub.js';

type RealtimeSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/** A refused handshake: the client's `connect_error` has this message and `data`. */
class HandshakeError extends Error {
  readonly data: RealtimeErrorBody;
  constructor(code: string, message: string) {
    super(code);
    this.data = { error: code, message };
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

const headerValue = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** A cookie-authenticated socket must come from our own origin (no cross-site socket hijacking). */
function isSameOrigin(headers: IncomingHttpHeaders): boolean {
  const origin = headerValue(headers, 'origin');
  if (!origin) return true; // not a browser
  try {
    return new URL(origin).host === headerValue(headers, 'host');
  } catch {
    return false;
  }
}

/** The token from `auth.token`, the x-auth-token header, or the session cookie (in that order). */
function handshakeToken(socket: RealtimeSocket): { token: string; via: 'auth' | 'header' | 'cookie' } | undefined {
  const { auth, headers } = socket.handshake;
  const fromAuth = (auth as Record<string, unknown> | undefined)?.token;
  if (typeof fromAuth === 'string' && fromAuth) return { token: fromAuth, via: 'auth' };
  const header = headerValue(headers, 'x-auth-token');
  if (header) return { token: header, via: 'header' };
  const cookie = readCookie(headerValue(headers, 'cookie'), SESSION_COOKIE);
  if (cookie) return { token: cookie, via: 'cookie' };
  return undefined;
}

function errorBody(err: unknown, deps: Deps): RealtimeErrorBody {
  if (err instanceof AppError) return { error: err.code, message: err.message };
  deps.log.error({ err }, 'socket event failed');
  return { error: 'server_error', message: 'Server error. Please try again later.' };
}

/**
 * The socket events (SPEC section 7), registered explicitly. Identity is fixed at the handshake;
 * every event acts as that user whatever ids its payload names.
 */
export function registerSocketHandlers(io: RealtimeServer, deps: Deps, hub: Realtime): void {
  // Catch-up reads up to 500 messages: a few per second per user is plenty after a reconnect.
  const catchUpLimiter = deps.limits.limiter('socket.catch-up', 10, 5);
  const limitCatchUp = (userId: string) => spend(catchUpLimiter, userId, 'Too many catch-up requests. Please wait a moment.');

  io.use((socket, next) => {
    const found = handshakeToken(socket);
    if (!found) return next(new HandshakeError('unauthorized', 'Please log in to continue.'));
    if (found.via === 'cookie' && !isSameOrigin(socket.handshake.headers))
      return next(new HandshakeError('forbidden', 'Cross-site connection refused.'));
    deps.tokens
      .verify(found.token)
      .then(async (claims) => {
        const user = claims && (await deps.db.manager.findOneBy(UserEntity, { id: claims.userId }));
        if (!claims || !user || user.tokenVersion !== claims.version) return next(new HandshakeError('unauthorized', 'Please log in to continue.'));
        socket.data.userId = user.id;
        socket.data.tokenVersion = user.tokenVersion;
        // The socket lives no longer than its token.
        if (claims.expiresAt !== undefined) {
          const timer = setTimeout(() => socket.disconnect(true), Math.max(0, claims.expiresAt - Date.now()));
          timer.unref();
          socket.once('disconnect', () => clearTimeout(timer));
        }
        next();
      })
      .catch((err: unknown) => {
        deps.log.error({ err }, 'socket handshake failed');
        next(new HandshakeError('server_error', 'Server error. Please try again later.'));
      });
  });

  io.on('connection', (socket) => {
    const userId = socket.data.userId;
    void socket.join(userRoom(userId));

    const sendInit = () =>
      hub.track(unreadCounts(deps.db, userId).then((counts) => socket.emit('init', counts)));

    // Old clients announce themselves; the identity is the handshake's, so this only re-sends init.
    socket.on('newUser', () => sendInit());

    socket.on('sendMessage', (payload, ack) => {
      const reply = typeof ack === 'function' ? ack : undefined;
      const clientId = typeof (payload as { clientId?: unknown } | null)?.clientId === 'string' ? payload.clientId : undefined;
      hub.track(
        (async () => {
          try {
            const input = parse(SendMessageBody, payload);
            const { conversation, message } = await sendMessage({ db: deps.db, realtime: hub, limits: deps.limits }, userId, input);
            reply?.({ ok: true, message: presentMessage(conversation, userId, message), clientId });
          } catch (err) {
            const error = errorBody(err, deps);
            if (reply) reply({ ok: false, error, clientId });
            else socket.emit('realtime-error', { event: 'sendMessage', ...error });
          }
        })(),
      );
    });

    socket.on('last_message_id', (payload, ack) => {
      const reply = typeof ack === 'function' ? ack : undefined;
      hub.track(
        (async () => {
          try {
            const input = parse(LastMessageIdBody, payload ?? {});
            await limitCatchUp(userId);
            const missed = await missedMessages(deps.db, userId, input);
            socket.emit('missed-messages', missed);
            reply?.({ ok: true, count: missed.messages.length, hasMore: missed.hasMore });
          } catch (err) {
            const error = errorBody(err, deps);
            if (reply) reply({ ok: false, error });
            else socket.emit('realtime-error', { event: 'last_message_id', ...error });
          }
        })(),
      );
    });

    // Presence first, then init: a client that has `init` is counted online on every process.
    const added = hub.presence.add(userId, socket.id);
    hub.track(added.finally(() => sendInit()));
    socket.on('disconnect', () => {
      hub.track(added.catch(() => undefined).then(() => hub.presence.remove(userId, socket.id)));
    });
  });
}
