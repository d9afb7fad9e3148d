import { QUICK } from '../../support/property-runs';
import sharp from 'sharp';
import { photoBlob, photoCaption, photoKind, photoPool, renderPhoto } from '../../../stack/demo/photos';

/** Mean absolute difference between neighbouring pixels: low for drawn shapes, ~85 for noise. */
function roughness(data: Uint8Array, width: number, height: number, channels: number): number {
  let sum = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 1; x < width; x++) sum += Math.abs(data[(y * width + x) * channels] - data[(y * width + x - 1) * channels]);
  }
  return sum / (height * (width - 1));
}

async function decode(bytes: Buffer): Promise<{ data: Uint8Array; width: number; height: number; channels: number }> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

describe('renderPhoto', () => {
  it('produces a real JPEG that decodes to the requested size', async () => {
    for (const [w, h] of [
      [1200, 800],
      [800, 533],
      [33, 17],
    ]) {
      const bytes = await renderPhoto('ph-001', w, h);
      expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', w, h]);
    }
  });

  it('draws a picture, not noise nor a blank, for every kind of scene', async () => {
    for (const id of ['ph-001', 'ph-002', 'ph-003', 'ph-097']) {
      const { data, width, height, channels } = await decode(await renderPhoto(id, 600, 400));
      const r = roughness(data, width, height, channels);
      expect(r).toBeGreaterThan(0.5);
      expect(r).toBeLessThan(12);
      const colours = new Set<number>();
      for (let i = 0; i < data.length; i += channels * 97) colours.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
      expect(colours.size).toBeGreaterThan(20);
    }
  });

  it('is deterministic from the id, and different ids draw different pictures', async () => {
    expect((await renderPhoto('ph-042', 400, 267)).equals(await renderPhoto('ph-042', 400, 267))).toBe(true);
    expect((await renderPhoto('ph-042', 400, 267)).equals(await renderPhoto('ph-045', 400, 267))).toBe(false);
  });

  it('rejects sizes outside 16..4000', async () => {
    await expect(renderPhoto('ph-001', 8, 8)).rejects.toThrow(/size/);
    await expect(renderPhoto('ph-001', 5000, 800)).rejects.toThrow(/size/);
  });
});

describe('photoBlob', () => {
  it('holds a 1200x800 full and an 800x533 widget JPEG, each under 80 KB', async () => {
    const blob = await photoBlob('ph-097', new Date('2025-06-15T00:00:00Z'));
    expect(blob).toMatchObject({ _id: 'ph-097', width: 1200, height: 800, created_at: new Date('2025-06-15T00:00:00Z') });
    const full = await sharp(blob.full).metadata();
    const widget = await sharp(blob.widget).metadata();
    expect([full.width, full.height, widget.width, widget.height]).toEqual([1200, 800, 800, 533]);
    expect(blob.full.length).toBeLessThan(80_000);
    expect(blob.widget.length).toBeLessThan(80_000);
  });
});

describe('photoPool', () => {
  it('has 120 distinct ids: 96 rooms in turn, then 24 exteriors, each with a caption', () => {
    const pool = photoPool();
    expect(pool).toHaveLength(120);
    expect(new Set(pool).size).toBe(120);
    expect([pool[0], pool[119]]).toEqual(['ph-001', 'ph-120']);
    expect(pool.slice(0, 3).map(photoKind)).toEqual(['living_room', 'bedroom', 'kitchen']);
    expect(pool.slice(96).every((id) => photoKind(id) === 'exterior')).toBe(true);
    expect(photoCaption('ph-097')).toBe('Building exterior');
    expect(photoKind('some-other-id')).toMatch(/living_room|bedroom|kitchen|exterior/);
  });

  it('renders the whole pool (both variants) with every photo under 80 KB', async () => {
    let largest = 0;
    // The quick tier draws every fourth photo of the pool, each kind of scene among them; npm test draws them all.
    const pool = photoPool();
    for (const id of QUICK ? pool.filter((_, i) => i % 4 === 0) : pool) {
      const blob = await photoBlob(id);
      largest = Math.max(largest, blob.full.length, blob.widget.length);
    }
    expect(largest).toBeLessThan(80_000);
  });
});
