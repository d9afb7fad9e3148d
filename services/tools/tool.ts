/**
 * A tool of the spec, defined once. GET routes, the MCP tool server, tools.json, the tools
 * markdown and openapi.json are all derived from the registry of these definitions.
 */
import type { JSONSchema } from 'json-schema-to-ts';
import type { Deps } from '../deps';
import type { IsoDate } from '../kernel/inventory/records';
import type { WidgetDefinition } from '../widgets/catalog';

export type ObjectSchema = JSONSchema & { type: 'object' };

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
  /** Query parameter → tool argument, for the spec's renames (`check_in` → `start_date`). */
  renames?: Record<string, string>;
  /** Tool arguments also accepted as query parameters under their own names. */
  query: string[];
  /** Query parameters the route requires though the tool does not (GET has no `scope`, so `market` is required). */
  required?: string[];
  summary: string;
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
  /** Label → value, in the order shown; the confirmation is bound to exactly these. */
  details: Record<string, string>;
}

export interface ToolContext {
  deps: Deps;
  /** The calendar date requests are judged against (UTC), read once per request. */
  today: IsoDate;
  now: Date;
}

export interface ToolDefinition<I = Record<string, unknown>, O = unknown> {
  name: string;
  title: string;
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  annotations: ToolAnnotations;
  get?: GetRoute;
  /** Rate-limit bucket; the availability overview has its own, stricter one. */
  rateBucket?: 'default' | 'overview';
  /** The interactive-app widget hosts show the result in (MCP Apps), named in the tool's `_meta`. */
  widget?: WidgetDefinition;
  /**
   * What the tool server's text block carries, when the whole answer is more than a model should
   * read (MCP.md: tool output near 25k tokens): a brief of it. structuredContent (and GET) always
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

/** Erases a tool's argument and result types so different tools fit in one list. */
export type AnyTool = ToolDefinition<never, unknown>;

export function defineTool<I, O>(tool: ToolDefinition<I, O>): AnyTool {
  return tool as unknown as AnyTool;
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
