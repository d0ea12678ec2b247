/**
 * The socket.io events: what clients see is the contract shared with the renderer
 * (`api/contract/realtime.ts`); what only the server's processes see is here.
 */
export type * from '../../contract/realtime.js';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface InterServerEvents {}

export interface SocketData {
  userId: string;
  /** The session the socket authenticated with: logout or a password change closes its sockets. */
  sessionId: string;
  /** When that session expires (epoch ms): the socket is closed then. */
  sessionExpiresAt: number;
}

/** The room of one user: every socket of theirs, on every API process, is in it. */
export const userRoom = (userId: string) => `user:${userId}`;
