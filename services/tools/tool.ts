/**
 * A tool of the contract (docs/contract.md, "The tools"), defined once. GET routes, the MCP tool server, tools.json, the tools
 * markdown and openapi.json are all derived from the registry of these definitions.
 */
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import type { WidgetDefinition } from '../widgets/catalog';
import type { ConfirmedWording } from '../booking-intents/consent';
import { argumentReader, type ArgumentSource, type ObjectSchema } from './validate';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** How a tool is also reachable with GET under /api/public. */
export interface GetRoute {
  /** Path under /api/public, koa-router syntax, e.g. `/homes/:slug/quote`. */
  path: string;
  /** Path parameter → tool argument, e.g. `{ slug: 'home_slug' }`. */
  pathParams?: Record<string, string>;
  /** Query parameter → tool argument, for the renames of docs/contract.md, "HTTP routes" (`check_in` → `start_date`). */
  renames?: Record<string, string>;
  /** Tool arguments also accepted as query parameters under their own names. */
  query: string[];
  /** Query parameters the route requires though the tool does not (GET has no `scope`, so `market` is required). */
  required?: string[];
  /** Groups of query parameters of which at least one must be given whole (the map: a market, or a viewport); OpenAPI's `x-required-one-of`. */
  requiredOneOf?: string[][];
  /** Arguments whose query parameter is text of its own form (a polygon: `lat,lon;lat,lon;…`), by argument name. */
  encoded?: Record<string, QueryEncoding>;
  summary: string;
}

/**
 * Text in a route's GET names: a tool argument the route renames ("start_date", "scope.display_city")
 * becomes its GET parameter ("check_in", "display_city"); only whole names change.
 */
export function inGetWords(route: GetRoute): (text: string) => string {
  const toGet = new Map<string, string>();
  for (const [getName, toolName] of Object.entries(route.renames ?? {})) toGet.set(toolName, getName);
  for (const [param, toolName] of Object.entries(route.pathParams ?? {})) toGet.set(toolName, param);
  if (toGet.size === 0) return (text) => text;
  const words = new RegExp(`\\b(${[...toGet.keys()].map((k) => k.replace(/\./g, '\\.')).join('|')})\\b`, 'g');
  return (text) => text.replace(words, (w) => toGet.get(w) ?? w);
}

/** How an argument that is not a scalar is written in a query string: decoded before the tool's schema reads it. */
export interface QueryEncoding {
  /** What the text holds, for openapi.json. */
  description: string;
  /** The parameter's OpenAPI schema (a string, with its pattern). */
  schema: Record<string, unknown>;
  /** The argument the text gives; throws the contract's 400 on text of another form. */
  decode(text: string): unknown;
}

/** An image a tool result embeds (MCP only): a served photo, loaded by the transport. */
export interface EmbeddedImage {
  photoId: string;
  meta: Record<string, unknown>;
}

export interface ToolResult<O> {
  data: O;
  images?: EmbeddedImage[];
  /** Result-level `_meta` for hosts with the interactive-app extension (widget-only bulk). */
  meta?: Record<string, unknown>;
}

/** What a person is asked to confirm: a sentence and the exact details it is about. */
export interface GuestConfirmation {
  message: string;
  /** The version of the message's fixed text (recorded with the consent). */
  wordingVersion: string;
  /** Label → value, in the order shown; the confirmation is bound to exactly these. */
  details: Record<string, string>;
}

/** Which door a request came through: the GET API, or the tool server in one of its two eras. */
export type RequestTransport = 'http' | 'mcp-2025' | 'mcp-2026';

/**
 * What the transport knows of one request and hands down unchanged: who asked (the rate-limit key:
 * the client's address, or its /64 for IPv6), through which door, and a signal that aborts when the
 * request's deadline passes or its client goes away (work stops then).
 */
export interface RequestScope {
  clientKey: string;
  transport: RequestTransport;
  signal: AbortSignal;
  /** The request's trace id while tracing is on, sampled or not (its failure lines carry it). */
  traceId?: string;
  /** When the person confirmed this call through the client's form (2026-07-28 elicitation): the words they accepted. */
  confirmed?: ConfirmedWording;
  /** The client renders the results widgets, which show photos from their URLs (it declared MCP Apps: in a 2026-07-28 request's envelope, or at a 2025 initialize). */
  rendersWidgets?: boolean;
}

export interface ToolContext {
  deps: Deps;
  /** The request this call serves. */
  request: RequestScope;
  /** The calendar date requests are judged against (UTC), read once per request. */
  today: IsoDate;
  now: Date;
}

/** What transports and documents read of a tool: everything but its code. */
export interface ToolDescription {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  annotations: ToolAnnotations;
  get?: GetRoute;
  /** Rate-limit bucket; the availability overview has its own, stricter one. */
  rateBucket?: 'default' | 'overview';
  /**
   * Rate-limit points one call takes (default 1, as every other message): what it costs the service,
   * in units of an apartment read, from the bench's service time per call (docs/decisions.md, "Rate limits").
   */
  cost?: number;
  /** The interactive-app widget hosts show the result in (MCP Apps), named in the tool's `_meta`. */
  widget?: WidgetDefinition;
  /**
   * Called by a widget only (MCP Apps `_meta.ui.visibility: ['app']`): listed in tools/list for hosts,
   * which do not show it to the model, and left out of the documents (tools.json, markdown, openapi.json).
   */
  appOnly?: boolean;
  /**
   * A route of the GET API with no tool of its own (the place box): never on the tool server, in
   * openapi.json but not in tools.json or the tools markdown (tools/registry.ts, HTTP_ROUTES).
   */
  httpOnly?: boolean;
}

/** A tool as its author writes it: handlers typed by the tool's own argument (I) and result (O) types. */
export interface ToolDefinition<I, O> extends ToolDescription {
  /**
   * What the tool server's text block carries, when the whole answer is more than a model should
   * read (MCP hosts take tool output near 25k tokens): a brief of it. structuredContent (and GET) always
   * carry the whole answer. Without it, the text block is the whole answer's JSON.
   */
  modelText?(data: O): unknown;
  /**
   * A write that saves what a person said about themselves: the details the person confirms before
   * anything is saved, where the client can ask them (MCP 2026-07-28 elicitation). Throws the tool's
   * own error for arguments the write would refuse, so nobody is asked in vain.
   */
  confirmation?(args: I, ctx: ToolContext): Promise<GuestConfirmation>;
  /** Receives arguments already validated against inputSchema. */
  handler(args: I, ctx: ToolContext): Promise<ToolResult<O>>;
}

/** One call's answer: the result, and what the tool server's text block carries (the brief, or the data itself). */
export interface ToolAnswer extends ToolResult<unknown> {
  text: unknown;
}

/**
 * A tool of the registry. Its argument and result types stay inside: a caller hands it the raw
 * arguments, and it reads them against its own inputSchema (ajv's guard for its type) before its
 * handler sees them, so different tools fit in one list without erasing what they take.
 */
export interface Tool extends ToolDescription {
  /** True when the text block is a brief of the answer (modelText), not the answer's own JSON. */
  briefs: boolean;
  call(raw: unknown, from: ArgumentSource, ctx: ToolContext): Promise<ToolAnswer>;
  /** For a write that asks the guest first: the arguments as read, and what the guest is asked to confirm. */
  confirmationFor?(raw: unknown, ctx: ToolContext): Promise<{ args: object; confirmation: GuestConfirmation }>;
}

export function defineTool<I extends object, O>(definition: ToolDefinition<I, O>): Tool {
  const { modelText, confirmation, handler, ...description } = definition;
  const readers: Record<ArgumentSource, (raw: unknown) => I> = {
    json: argumentReader<I>(definition.inputSchema, 'json'),
    query: argumentReader<I>(definition.inputSchema, 'query'),
  };
  const tool: Tool = {
    ...description,
    briefs: modelText !== undefined,
    async call(raw, from, ctx) {
      const result = await handler(readers[from](raw), ctx);
      return { ...result, text: modelText ? modelText(result.data) : result.data };
    },
  };
  if (confirmation) {
    tool.confirmationFor = async (raw, ctx) => {
      const args = readers.json(raw);
      return { args, confirmation: await confirmation(args, ctx) };
    };
  }
  return tool;
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
