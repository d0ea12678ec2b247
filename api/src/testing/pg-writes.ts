import net from 'node:net';

type Writer = { _write: (...a: unknown[]) => unknown; _writev: (...a: unknown[]) => unknown };

/**
 * Counts the writes node makes to PostgreSQL (on any socket to DATABASE_URL's port) while `during`
 * runs: one write is one wake-up of PostgreSQL, the cost that pg-transaction.ts and pg-reads.ts
 * save. Node's own socket methods are counted, nothing of ours is replaced.
 */
export async function postgresWritesDuring<T>(during: () => Promise<T>): Promise<{ value: T; writes: number }> {
  const port = Number(new URL(process.env.DATABASE_URL ?? 'postgres://localhost').port || 5432);
  const proto = net.Socket.prototype as unknown as Writer;
  const original = { _write: proto._write, _writev: proto._writev };
  let writes = 0;
  const count = (socket: net.Socket) => {
    if (socket.remotePort === port) writes++;
  };
  proto._write = function (this: net.Socket, ...a: unknown[]) {
    count(this);
    return original._write.apply(this, a);
  };
  proto._writev = function (this: net.Socket, ...a: unknown[]) {
    count(this);
    return original._writev.apply(this, a);
  };
  try {
    const value = await during();
    return { value, writes };
  } finally {
    Object.assign(proto, original);
  }
}
