import type { Collections } from '../../../services/kernel/store/collections';
import type { PropertyRecord } from '../../../services/kernel/inventory/records';
import { GenerationBuildings } from '../../../services/buildings/generation-buildings';

/** A properties collection whose one building's name the test changes, counting reads. */
function store(): { c: Pick<Collections, 'properties'>; rename(name: string): void; reads(): number } {
  let name = 'Old name';
  let reads = 0;
  const c = {
    properties: {
      findOne: async (filter: { _id: string }) => {
        reads += 1;
        return filter._id === 'p1' ? ({ _id: 'p1', name } as PropertyRecord) : null;
      },
    },
  } as unknown as Pick<Collections, 'properties'>;
  return { c, rename: (n) => (name = n), reads: () => reads };
}

describe('GenerationBuildings (the apartment read and the quote)', () => {
  it('serves a kept building while the generation is the one it was read under, and reads again once it moves', async () => {
    const s = store();
    const buildings = new GenerationBuildings(s.c);
    expect((await buildings.byId('p1', { n: 3, applying: false }))?.name).toBe('Old name');
    s.rename('New name'); // written, not yet applied by a run: search still shows the old one
    expect((await buildings.byId('p1', { n: 3, applying: false }))?.name).toBe('Old name');
    expect(s.reads()).toBe(1);
    expect((await buildings.byId('p1', { n: 5, applying: false }))?.name).toBe('New name');
    expect(s.reads()).toBe(2);
  });

  it('neither serves nor keeps a building while a run writes, nor without a generation', async () => {
    const s = store();
    const buildings = new GenerationBuildings(s.c);
    await buildings.byId('p1', { n: 3, applying: false });
    s.rename('New name');
    expect((await buildings.byId('p1', { n: 4, applying: true }))?.name).toBe('New name');
    expect((await buildings.byId('p1', null))?.name).toBe('New name');
    s.rename('Newer name');
    expect((await buildings.byId('p1', { n: 4, applying: true }))?.name).toBe('Newer name');
    expect(s.reads()).toBe(4);
  });

  it('does not keep a building that is missing: one written since is served at once', async () => {
    const s = store();
    const buildings = new GenerationBuildings(s.c);
    expect(await buildings.byId('p2', { n: 1, applying: false })).toBeNull();
    expect(await buildings.byId('p2', { n: 1, applying: false })).toBeNull();
    expect(s.reads()).toBe(2);
  });
});
