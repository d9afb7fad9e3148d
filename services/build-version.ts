/** The mapping version this build reads: the indexer's hash of the same mapping (indexer/es-admin.ts). */
import shippedMapping from '../mappings/homes.json';
import { buildMapping, mappingVersionOf } from './kernel/store/mapping-version';

export const BUILD_MAPPING_VERSION = mappingVersionOf(buildMapping(shippedMapping));
