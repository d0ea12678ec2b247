import net from 'node:net';

export interface TcpProxy {
  /** `host:port` of the proxy, on loopback. */
  address: string;
  /** Cuts every connection, and holds new ones without forwarding a byte: a network partition. */
  cut(): void;
  /** Forwards again; connections held while cut are dropped. */
  restore(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to `target` (`host:port`) that a test can cut, in place of stopping a shared server. */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const [host, port] = [target.slice(0, target.lastIndexOf(':')), Number(target.slice(target.lastIndexOf(':') + 1))];
  const open = new Set<net.Socket>();
  const held = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    client.on('error', () => undefined);
    if (cut) {
      held.add(client);
      client.once('close', () => held.delete(client));
      return;
    }
    const upstream = net.connect(port, host);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.once('close', () => {
        open.delete(socket);
        (socket === client ? upstream : client).destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const destroy = (sockets: Set<net.Socket>) => {
    for (const socket of [...sockets]) socket.destroy();
  };
  return {
    address: `127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    cut: () => {
      cut = true;
      destroy(open);
    },
    restore: () => {
      cut = false;
      destroy(held);
    },
    close: async () => {
      destroy(open);
      destroy(held);
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
