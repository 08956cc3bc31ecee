import { createRequire } from "node:module";

type Sharp = (input: Uint8Array) => { resize(w: number, h: number, o: object): { webp(): { toBuffer(): Promise<Buffer> } } };
let sharp: Sharp | null | undefined;

/**
 * A small WebP preview (256 px box) of an image, through `sharp` when it is installed (Next.js ships it); without it,
 * the original bytes serve as their own thumbnail.
 */
export async function createThumbnail(bytes: Uint8Array): Promise<ArrayBuffer> {
  if (sharp === undefined) {
    try {
      sharp = createRequire(`${process.cwd()}/package.json`)("sharp") as Sharp;
    } catch {
      sharp = null;
    }
  }
  let out: Uint8Array = bytes;
  if (sharp) {
    try {
      out = await sharp(bytes).resize(256, 256, { fit: "inside", withoutEnlargement: true }).webp().toBuffer();
    } catch {
      out = bytes;
    }
  }
  return out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer;
}
