/**
 * The demo photos of a test world, drawn once and kept on disk: every integration and e2e file seeds
 * its own world, and drawing the 120 photos of the pool (stack/demo/photos.ts) costs about 3 s of
 * processor a world. The kept files are named by a hash of the drawing code (stack/demo/ and its
 * scenes) and sharp's version, so a change to either draws them again. A file is written under a
 * temporary name and renamed, so a file another worker reads is always whole.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BSON } from 'mongodb';
import sharp from 'sharp';
import type { PhotoBlobRecord } from '../../services/kernel/store/collections';
import { photoBlob } from '../../stack/demo/photos';

const ROOT = path.join(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'stack', 'demo');

function drawingVersion(): string {
  const hash = createHash('sha256');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  for (const file of files(DEMO).sort()) hash.update(file).update(readFileSync(file));
  hash.update(JSON.stringify(sharp.versions));
  return hash.digest('hex').slice(0, 16);
}

let dir: string | undefined;

/** `photoBlob`, read from the kept file when there is one, else drawn and kept. */
export async function keptPhotoBlob(id: string): Promise<PhotoBlobRecord> {
  dir ??= path.join(ROOT, 'node_modules', '.cache', 'catalog-test-photos', drawingVersion());
  const file = path.join(dir, `${id}.bson`);
  try {
    const kept = BSON.deserialize(readFileSync(file), { promoteBuffers: true });
    return kept as PhotoBlobRecord;
  } catch {
    const blob = await photoBlob(id);
    mkdirSync(dir, { recursive: true });
    const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(partial, BSON.serialize(blob));
    renameSync(partial, file);
    return blob;
  }
}
