import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Metadata } from 'sharp';
import type { Config } from '../config.js';
import { tooLarge, unsupportedMedia } from '../errors.js';
import { UPLOAD_FAILED, UPLOAD_NOT_AN_IMAGE as NOT_AN_IMAGE } from '../../contract/texts.js';
import { makePrivateDir, writePrivateFile } from '../files.js';

export const UPLOAD_PREFIX = '/uploads/';
export const uploadsDir = (config: Config) => path.join(config.dataDir, 'uploads');
export const UPLOAD_NAME = /^[0-9a-f-]{36}\.jpg$/;

/** The most pixels a picture may have: a bigger one (a small file can hold a huge PNG) is too large, not 'not an image'. */
const MAX_INPUT_PIXELS = 50_000_000;

/**
 * Checks the bytes (not the name) are a PNG or JPEG, fits the picture in 1000x1000, re-encodes it
 * as JPEG quality 90 (which drops EXIF, GPS and every other metadata) and stores it.
 * Answers the public location.
 */
export async function storeImage(config: Config, input: Buffer): Promise<string> {
  // Loaded with the first picture: a process that stores none never needs it.
  const { default: sharp } = await import('sharp');
  const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  let meta: Metadata;
  try {
    // The header only, without the pixel limit (which would refuse a giant picture as unreadable).
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unsupportedMedia(NOT_AN_IMAGE);
  }
  if (meta.format !== 'png' && meta.format !== 'jpeg') throw unsupportedMedia(NOT_AN_IMAGE);
  if ((meta.width ?? 0) * (meta.height ?? 0) > MAX_INPUT_PIXELS) throw tooLarge(UPLOAD_FAILED);
  let output: Buffer;
  try {
    output = await image.rotate().resize(1000, 1000, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 90 }).toBuffer();
  } catch {
    throw unsupportedMedia(NOT_AN_IMAGE);
  }
  const name = `${crypto.randomUUID()}.jpg`;
  makePrivateDir(uploadsDir(config), { always: true });
  await writePrivateFile(path.join(uploadsDir(config), name), output);
  return UPLOAD_PREFIX + name;
}

/** Removes a picture this server stored; anything else is left alone. */
export async function removeImage(config: Config, location: string | null): Promise<void> {
  if (!location?.startsWith(UPLOAD_PREFIX)) return;
  const name = location.slice(UPLOAD_PREFIX.length);
  if (!UPLOAD_NAME.test(name)) return;
  await fs.rm(path.join(uploadsDir(config), name), { force: true });
}
