/**
 * The service's Prometheus metrics (prom-client), one registry per service: request durations by
 * route template, tool calls by outcome, store calls, answers a store failed, rate-limit refusals, the indexer's last runs
 * and the default process metrics. Every label value comes from a fixed set (a route template, a
 * registry tool name, a store command name): never a slug, an email or a query value.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type PrometheusContentType } from 'prom-client';

/** Seconds: from a cached market list (0.2 ms) to the store deadline (2 s) and past it. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export type ToolOutcome = 'ok' | 'tool_error' | 'refused';

/** What a cache counts of its lookups: answered from what it kept (hit) or by the store or a computation (miss). */
export interface CacheLookups {
  hit: number;
  miss: number;
}
export type StoreName = 'elasticsearch' | 'mongodb';

/** What the indexer gauges read at each scrape (from the indexer's state in MongoDB). */
export interface IndexerRunView {
  kind: 'full' | 'incremental';
  finished_at: Date;
  duration_ms: number;
  documents: number;
}
export interface IndexerView {
  lastFull: IndexerRunView | null;
  lastIncremental: IndexerRunView | null;
  failures: { full: number; incremental: number };
}

export class ServiceMetrics {
  readonly registry: Registry;
  /** Whether the request histogram keeps exemplars (the trace id of a sampled request per bucket): with tracing on. */
  readonly exemplars: boolean;
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly toolCalls: Counter<'tool' | 'outcome'>;
  readonly storeDuration: Histogram<'store' | 'operation' | 'outcome'>;
  readonly rateLimitRefusals: Counter<'bucket'>;
  readonly storeUnavailable: Counter<'store'>;
  readonly boundedRequests: Counter<'outcome'>;

  /**
   * `exemplars` (tracing on): the registry is an OpenMetrics one, the only text format with exemplars;
   * its sample names are the Prometheus text's (a counter's samples end in `_total` in both).
   */
  constructor(readIndexer?: () => Promise<IndexerView>, now: () => Date = () => new Date(), opts: { exemplars?: boolean } = {}) {
    this.exemplars = opts.exemplars ?? false;
    this.registry = new Registry();
    // Before any metric is registered: a histogram with exemplars is refused by a Prometheus registry.
    if (this.exemplars) this.registry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE as unknown as PrometheusContentType);
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'catalog_http_request_duration_seconds',
      help: 'HTTP requests by method, route template and status',
      labelNames: ['method', 'route', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
      enableExemplars: this.exemplars,
    });
    this.toolCalls = new Counter({
      name: 'catalog_tool_calls_total',
      help: 'Tool calls by registry tool and outcome (ok, tool_error: an isError result, refused: rate limited)',
      labelNames: ['tool', 'outcome'],
      registers,
    });
    this.storeDuration = new Histogram({
      name: 'catalog_store_call_duration_seconds',
      help: 'Calls to Elasticsearch and MongoDB by store, operation and outcome (ok, failed)',
      labelNames: ['store', 'operation', 'outcome'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.rateLimitRefusals = new Counter({
      name: 'catalog_rate_limit_refusals_total',
      help: 'Requests refused with 429 by rate-limit bucket',
      labelNames: ['bucket'],
      registers,
    });
    // Beside the store calls' outcomes: a MongoDB that refuses connections fails in server selection,
    // before any command (and its monitoring event), so only the request path sees it.
    this.storeUnavailable = new Counter({
      name: 'catalog_store_unavailable_total',
      help: 'Requests and tool calls answered service_unavailable because a store did not answer, by store',
      labelNames: ['store'],
      registers,
    });
    this.boundedRequests = new Counter({
      name: 'catalog_requests_bounded_total',
      help: 'Requests cut short by the bounds of a request: shed (at capacity), deadline (503 past it), client_gone',
      labelNames: ['outcome'],
      registers,
    });
    if (readIndexer) this.indexerGauges(readIndexer, now);
    collectDefaultMetrics({ register: this.registry });
  }

  /** Each cache's lookups at every scrape, by cache name (the caches count; this reads their counts). */
  reportCaches(caches: Readonly<Record<string, { readonly lookups: CacheLookups }>>): void {
    new Counter({
      name: 'catalog_cache_lookups_total',
      help: 'Cache lookups by cache and outcome (hit: answered from what the cache kept; miss: read or computed)',
      labelNames: ['cache', 'outcome'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const [cache, { lookups }] of Object.entries(caches)) {
          this.inc({ cache, outcome: 'hit' }, lookups.hit);
          this.inc({ cache, outcome: 'miss' }, lookups.miss);
        }
      },
    });
  }

  /**
   * Elasticsearch nodes as the node watch sees them at every scrape: 1 while a node's last probe
   * answered in time, 0 while it did not (searches then stay off it when another answers). The
   * label is the node's origin (never its credentials); with one node nothing is watched and the
   * metric has no series.
   */
  reportEsNodes(watch: { seen(): { node: string; answers: boolean }[] }): void {
    new Gauge({
      name: 'catalog_elasticsearch_node_answering',
      help: "Elasticsearch nodes by origin: 1 while the node watch's last probe answered in time, 0 while it did not",
      labelNames: ['node'],
      registers: [this.registry],
      collect() {
        this.reset();
        for (const { node, answers } of watch.seen()) this.set({ node: new URL(node).origin }, answers ? 1 : 0);
      },
    });
  }

  /** The text a scrape gets, and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /**
   * The indexer's last successful runs and its failures, read from MongoDB at each scrape: the
   * worker writes them after every run, so any copy of the service reports them (no worker port).
   */
  private indexerGauges(read: () => Promise<IndexerView>, now: () => Date): void {
    let pending: Promise<IndexerView | null> | null = null;
    let last: IndexerView | null = null;
    // One read per scrape, shared by the metrics below; when it fails, the last one read serves
    // (the ages keep growing: an outage of MongoDB does not silence a stale-index alert).
    const view = (): Promise<IndexerView | null> => {
      pending ??= read()
        .then((v) => (last = v))
        .catch(() => last)
        .finally(() => setTimeout(() => (pending = null), 0));
      return pending;
    };
    const registers = [this.registry];
    const perKind = (name: string, help: string, value: (run: IndexerRunView) => number): void => {
      new Gauge({
        name,
        help,
        labelNames: ['kind'],
        registers,
        async collect() {
          this.reset();
          const v = await view();
          for (const run of [v?.lastFull, v?.lastIncremental]) if (run) this.set({ kind: run.kind }, value(run));
        },
      });
    };
    perKind('catalog_indexer_last_success_age_seconds', 'Seconds since the last successful indexer run finished, by kind', (r) =>
      Math.max(0, (now().getTime() - new Date(r.finished_at).getTime()) / 1000),
    );
    perKind('catalog_indexer_last_success_duration_seconds', 'Duration of the last successful indexer run, by kind', (r) => r.duration_ms / 1000);
    perKind('catalog_indexer_last_success_documents', 'Documents written by the last successful indexer run, by kind', (r) => r.documents);
    // A counter kept by the worker in MongoDB: each scrape reports its current total.
    new Counter({
      name: 'catalog_indexer_failed_runs_total',
      help: 'Indexer runs that failed, by kind, since the inventory was first indexed',
      labelNames: ['kind'],
      registers,
      async collect() {
        const v = await view();
        if (!v) return;
        this.reset();
        this.inc({ kind: 'full' }, v.failures.full);
        this.inc({ kind: 'incremental' }, v.failures.incremental);
      },
    });
  }
}
