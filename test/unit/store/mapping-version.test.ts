import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import shipped from '../../../mappings/homes.json';
import { MAPPING_VERSION } from '../../../indexer/es-admin';
import { buildMapping, mappingVersionOf, versionedAlias, versionOfAlias } from '../../../services/kernel/store/mapping-version';

describe('mapping versions', () => {
  it('gives a copy and the indexer of one build the same version', () => {
    expect(mappingVersionOf(buildMapping(shipped, {}))).toBe(MAPPING_VERSION);
  });

  it('makes another mapping file another version', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mapping-'));
    const changed = structuredClone(shipped) as { mappings: { properties: Record<string, unknown> } };
    changed.mappings.properties.market_slug = { type: 'keyword', eager_global_ordinals: true };
    writeFileSync(path.join(dir, 'homes.json'), JSON.stringify(changed));
    try {
      expect(mappingVersionOf(buildMapping(shipped, { HOMES_MAPPING_FILE: path.join(dir, 'homes.json') }))).not.toBe(MAPPING_VERSION);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads a version back from its alias, and none from the alias's places or another name", () => {
    expect(versionOfAlias('homes', versionedAlias('homes', MAPPING_VERSION))).toBe(MAPPING_VERSION);
    expect(versionOfAlias('homes', `${versionedAlias('homes', MAPPING_VERSION)}-places`)).toBeNull();
    expect(versionOfAlias('homes', 'homes-20261122t031700123z')).toBeNull();
    expect(versionOfAlias('homes', 'homes')).toBeNull();
  });
});
