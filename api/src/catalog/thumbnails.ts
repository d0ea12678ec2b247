/** The most small copies kept in memory (a few KB each; the embedded catalogue has a few hundred pictures). */
const MAX_KEPT = 1000;

/**
 * Small square JPEG copies of the catalogue's pictures, made once per file version and kept in
 * memory, so a wishlist page loads a few KB a row instead of the full picture.
 */
export class Thumbnails {
  private readonly kept = new Map<string, Promise<Buffer>>();

  constructor(private readonly width: number) {}

  /** The small copy of `file` as it is now (`version`: its size and time, as its ETag says). */
  get(file: string, version: string): Promise<Buffer> {
    const key = `${file}|${version}`;
    let made = this.kept.get(key);
    if (!made) {
      made = this.make(file);
      // A failure is not kept: the next request tries again.
      made.catch(() => this.kept.delete(key));
      const oldest = this.kept.keys().next();
      if (this.kept.size >= MAX_KEPT && !oldest.done) this.kept.delete(oldest.value);
      this.kept.set(key, made);
    }
    return made;
  }

  private async make(file: string): Promise<Buffer> {
    const { default: sharp } = await import('sharp');
    return sharp(file, { failOn: 'error' })
      .resize(this.width, this.width, { fit: 'cover' })
      .jpeg({ quality: 78, mozjpeg: true })
      .toBuffer();
  }
}
