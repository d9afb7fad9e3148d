/** What handlers may use: the stores, configuration, a logger and the clock. Built once at start. */
import type { Client as EsClient } from '@elastic/elasticsearch';
import type { Config } from './config';
import type { Db } from 'mongodb';
import type { Logger } from './logger';
import type { Collections } from './store/collections';

export interface Deps {
  config: Config;
  es: EsClient;
  mongo: Collections;
  /** For health checks (ping); handlers use the typed collections. */
  db: Db;
  log: Logger;
  /** The only clock the request path reads; tests pass a fixed one. */
  clock: () => Date;
}
