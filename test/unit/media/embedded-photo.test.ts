import sharp from 'sharp';
import { EMBED_MAX_BYTES, embeddablePhoto } from '../../../services/media/photos';

/** A photo that compresses badly: random noise, as large as a camera's. */
async function noisyJpeg(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

describe('embeddablePhoto', () => {
  it('keeps a photo that is already within the budget byte for byte', async () => {
    const small = await sharp({ create: { width: 800, height: 533, channels: 3, background: '#88aacc' } })
      .jpeg()
      .toBuffer();
    expect(small.length).toBeLessThanOrEqual(EMBED_MAX_BYTES);
    expect(await embeddablePhoto(small)).toBe(small);
  });

  it('scales a photo over the budget down to a JPEG within it', async () => {
    const big = await noisyJpeg(1600, 1066);
    expect(big.length).toBeGreaterThan(EMBED_MAX_BYTES * 4);
    const out = await embeddablePhoto(big);
    expect(out.length).toBeLessThanOrEqual(EMBED_MAX_BYTES);
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.width).toBeLessThan(1600);
    expect(meta.width! / meta.height!).toBeCloseTo(1600 / 1066, 1);
  });
});
