// The preload as a sandboxed renderer runs it: one classic CommonJS script whose only require is
// 'electron' (a sandboxed preload cannot load npm modules or Node built-ins). Bundled here with
// esbuild the way electron-vite bundles it (cjs, electron external) and run in a fresh VM context
// with fakes of contextBridge and ipcRenderer.
import { build } from 'esbuild';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

describe('desktop preload script', () => {
  it("runs as a classic script needing only 'electron' and exposes just the named-channel bridge", async () => {
    const result = await build({
      entryPoints: [path.join(import.meta.dirname, 'index.ts')],
      bundle: true,
      format: 'cjs',
      platform: 'browser',
      external: ['electron'],
      write: false,
      logLevel: 'silent',
    });
    const source = result.outputFiles[0].text;

    const exposed = new Map<string, unknown>();
    const invoked: unknown[][] = [];
    const required: string[] = [];
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => void invoked.push(args),
        on: () => undefined,
        removeListener: () => undefined,
        send: () => undefined,
      },
    };
    const sandbox = {
      require(id: string) {
        required.push(id);
        if (id !== 'electron') throw new Error(`a sandboxed preload cannot require ${id}`);
        return electron;
      },
      module: { exports: {} },
      exports: {},
    };
    new vm.Script(source, { filename: 'index.cjs' }).runInNewContext(sandbox);

    expect(required).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['giftlinkDesktopIpc']);
    const bridge = exposed.get('giftlinkDesktopIpc') as Record<string, unknown>;
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);
    expect(Object.values(bridge)).not.toContain(electron.ipcRenderer);
    await (bridge.invoke as (c: string, p?: unknown) => Promise<unknown>)('unread-counts', { messages: 1, notifications: 0 });
    expect(invoked).toEqual([['unread-counts', { messages: 1, notifications: 0 }]]);
  });
});
