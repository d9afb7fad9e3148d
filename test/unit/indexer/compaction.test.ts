import { compactionNeed, MAX_COMPACTED_SHARD_BYTES, type ShardCopy } from '../../../indexer/compaction';

const copy = (over: Partial<ShardCopy> = {}): ShardCopy => ({ segments: 1, bytes: 40 * 2 ** 20, ...over });

describe('compaction of the live index', () => {
  it('leaves an index whose every shard is one segment', () => {
    expect(compactionNeed([copy(), copy(), copy()])).toBe('tidy');
  });

  it('merges when one shard holds a second segment', () => {
    expect(compactionNeed([copy(), copy({ segments: 2 }), copy()])).toBe('fragmented');
  });

  it('leaves an index with a shard above the largest merged segment to the merge policy', () => {
    expect(compactionNeed([copy({ segments: 3 }), copy({ bytes: MAX_COMPACTED_SHARD_BYTES + 1 })])).toBe('too-large');
    expect(compactionNeed([copy({ segments: 3, bytes: MAX_COMPACTED_SHARD_BYTES })])).toBe('fragmented');
  });

  it('counts an empty shard (no segment) as tidy', () => {
    expect(compactionNeed([copy({ segments: 0, bytes: 230 })])).toBe('tidy');
  });
});
