import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Config } from '../config.js';
import { unsupportedMedia } from '../errors.js';
import { makePrivateDir, writePrivateFile } from '../files.js';

export const UPLOAD_PREFIX = '/uploads/';
export const uploadsDir = (config: Config) => path.join(config.dataDir, 'uploads');
export const UPLOAD_NAME = /^[0-9a-f-]{36}\.jpg$/;

const NOT_AN_IMAGE = 'Only PNG and JPEG images can be uploaded.';

/**
 * Checks the bytes (not the name) are a PNG or JPEG, fits the picture in 1000x1000, re-encodes it
 * as JPEG quality 90 (which drops EXIF, GPS and every other metadata) and stores it.
 * Answers the public location.
 */
export async function storeImage(config: Config, input: Buffer): Promise<string> {
  const image = sharp(input, { limitInputPixels: 50_000_000, failOn: 'error' });
  let format: string | undefined;
  try {
    format = (await image.metadata()).format;
  } catch {
    throw unsupportedMedia(NOT_AN_IMAGE);
  }
  if (format !== 'png' && format !== 'jpeg') throw unsupportedMedia(NOT_AN_IMAGE);
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
