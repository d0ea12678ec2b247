import { spend } from '../limits/rate-limits.js';
import { SessionEntity } from '../auth/entity.js';
import { authenticateToken } from '../auth/session.js';
import { credentialsOf, isSameOrigin } from '../auth/credentials.js';
import { missedMessages, sendMessage } from '../conversations/service.js';
import { presentMessage } from '../conversations/presenter.js';
import { LastMessageIdBody, SendMessageBody } from '../../contract/conversations.js';
import type { Deps } from '../deps.js';
import type { ErrorCode } from '../../contract/errors.js';
import { SERVER_ERROR } from '../../contract/texts.js';
import { AppError } from '../errors.js';
import { parse } from '../http/validate.js';
import { fromUnavailable } from '../http/errors.js';
import { userRoom, type RealtimeErrorBody } from './events.js';
import { unreadCounts, type Realtime, type RealtimeServer } from './hub.js';

/** Open sockets one user may hold at once (tabs, windows, the desktop app), across every process. */
export const MAX_SOCKETS_PER_USER = 10;
const TOO_MANY_SOCKETS = 'Too many open connections. Close a tab or window and try again.';

/** A refused handshake: the client's `connect_error` has this message and `data`. */
class HandshakeError extends Error {
  readonly data: RealtimeErrorBody;
  constructor(code: ErrorCode, message: string) {
    super(code);
    this.data = { error: code, message };
  }
}

/** setTimeout's longest delay; a socket of a longer session is closed then and reconnects. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function errorBody(err: unknown, deps: Deps): RealtimeErrorBody {
  const known = err instanceof AppError ? err : fromUnavailable(err);
  if (known) return { error: known.code, message: known.message };
  deps.log.error({ err }, 'socket event failed');
  return { error: 'server_error', message: SERVER_ERROR };
}

/**
 * The socket events (PRODUCT.md §7), registered explicitly. Identity is fixed at the handshake;
 * every event acts as that user whatever ids its payload names.
 */
export function registerSocketHandlers(io: RealtimeServer, deps: Deps, hub: Realtime): void {
  // Catch-up reads up to 500 messages: a few per second per user is plenty after a reconnect.
  const catchUpLimiter = deps.limits.limiter('socket.catch-up', 10, 5);
  const limitCatchUp = (userId: string) => spend(catchUpLimiter, userId, 'Too many catch-up requests. Please wait a moment.');

  io.use((socket, next) => {
    const { headers, auth: given } = socket.handshake;
    const found = credentialsOf(headers, (given as Record<string, unknown> | undefined)?.token);
    if (!found) return next(new HandshakeError('unauthorized', 'Please log in to continue.'));
    if (found.via === 'cookie' && !isSameOrigin(headers, headers.host))
      return next(new HandshakeError('forbidden', 'Cross-site connection refused.'));
    authenticateToken(deps, found.token)
      .then((auth) => {
        if (!auth) return next(new HandshakeError('unauthorized', 'Please log in to continue.'));
        socket.data.userId = auth.user.id;
        socket.data.sessionId = auth.session.id;
        socket.data.sessionExpiresAt = auth.session.expiresAt.getTime();
        next();
      })
      .catch((err: unknown) => {
        deps.log.error({ err }, 'socket handshake failed');
        next(new HandshakeError('server_error', SERVER_ERROR));
      });
  });

  // At most MAX_SOCKETS_PER_USER sockets per user at once, on all processes together (presence counts them).
  io.use((socket, next) => {
    hub.presence.count(socket.data.userId).then(
      (open) => next(open >= MAX_SOCKETS_PER_USER ? new HandshakeError('rate_limited', TOO_MANY_SOCKETS) : undefined),
      (err: unknown) => {
        deps.log.error({ err }, 'socket count failed');
        next(new HandshakeError('server_error', SERVER_ERROR));
      },
    );
  });

  io.on('connection', (socket) => {
    const userId = socket.data.userId;
    void socket.join(userRoom(userId));

    // The socket lives no longer than its session (logout and password changes close it sooner).
    // Set here, not at the handshake: a handshake refused later never gets a `disconnect` to clear it.
    const left = Math.min(socket.data.sessionExpiresAt - Date.now(), MAX_TIMER_MS);
    const timer = setTimeout(() => socket.disconnect(true), Math.max(0, left));
    timer.unref();
    socket.once('disconnect', () => clearTimeout(timer));
    // A logout that ran between this socket's handshake and its joining the room did not see it:
    // look at the session again now that it is in the room.
    hub.track(
      deps.db.manager.findOneBy(SessionEntity, { id: socket.data.sessionId }).then((session) => {
        if (!session || session.revokedAt !== null) socket.disconnect(true);
      }),
    );

    const sendInit = () => hub.track(unreadCounts(deps.db, userId).then((counts) => socket.emit('init', counts)));

    // Old clients announce themselves; the identity is the handshake's, so this only re-sends init.
    socket.on('newUser', () => sendInit());

    socket.on('sendMessage', (payload, ack) => {
      const reply = typeof ack === 'function' ? ack : undefined;
      const clientId = typeof (payload as { clientId?: unknown } | null)?.clientId === 'string' ? payload.clientId : undefined;
      hub.track(
        (async () => {
          try {
            const input = parse(SendMessageBody, payload);
            const { conversation, message } = await sendMessage(
              { db: deps.db, realtime: hub, limits: deps.limits, messagesPerMinute: deps.config.messageRateLimit },
              userId,
              input,
            );
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
    // Handshakes racing past the cap: each add is answered its own count, so the later ones close.
    const added = hub.presence.add(userId, socket.id);
    hub.track(
      added.then(
        (live) => {
          if (live > MAX_SOCKETS_PER_USER) socket.disconnect(true);
          else sendInit();
        },
        () => sendInit(),
      ),
    );
    socket.on('disconnect', () => {
      hub.track(added.catch(() => undefined).then(() => hub.presence.remove(userId, socket.id)));
    });
  });
}
