import type { SaveDialogOptions } from 'electron';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeFileName, saveFile } from './save.js';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe('native save', () => {
  let dir: string;
  let asked: SaveDialogOptions[];
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'giftlink-save-'));
    asked = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A fake of dialog.showSaveDialog: the user picks `choice` (or cancels). */
  const dialog = (choice: string | null) => async (options: SaveDialogOptions) => {
    asked.push(options);
    return choice ? { canceled: false, filePath: choice } : { canceled: true, filePath: '' };
  };

  it('asks with the default name and a PNG filter, then writes the bytes where the user chose', async () => {
    const target = path.join(dir, 'chosen.png');
    const result = await saveFile({ showSaveDialog: dialog(target), defaultDir: '/home/ana/Downloads' }, 'giftlink-ana.png', PNG);
    expect(result).toEqual({ saved: true });
    expect(asked[0].defaultPath).toBe(path.join('/home/ana/Downloads', 'giftlink-ana.png'));
    expect(asked[0].filters?.[0]).toEqual({ name: 'PNG image', extensions: ['png'] });
    expect(new Uint8Array(readFileSync(target))).toEqual(PNG);
  });

  it('writes nothing when the user cancels', async () => {
    const result = await saveFile({ showSaveDialog: dialog(null), defaultDir: dir }, 'giftlink-ana.png', PNG);
    expect(result).toEqual({ saved: false });
    expect(existsSync(path.join(dir, 'giftlink-ana.png'))).toBe(false);
  });

  it('never lets the page pick a path: only a cleaned base name is suggested', async () => {
    await saveFile({ showSaveDialog: dialog(null), defaultDir: dir }, '../../etc/passwd', PNG);
    expect(asked[0].defaultPath).toBe(path.join(dir, 'passwd'));
    expect(safeFileName('..\\..\\win.ini')).toBe('win.ini');
    expect(safeFileName('a<b>:c|d?.csv')).toBe('a-b--c-d-.csv');
    expect(safeFileName('...')).toBe('giftlink.png');
    expect(safeFileName('bad\u0000name\u0007.png')).toBe('badname.png');
  });
});
