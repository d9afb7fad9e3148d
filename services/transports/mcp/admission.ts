/**
 * Every JSON-RPC message to the tool server is counted at the door, before the SDK sees it: one point
 * of the default bucket before its body is read (so a body that is not JSON, a batch or a refused
 * origin counts too), then, once it is read, a call of a registry tool takes the rest of the tool's
 * weight (the availability overview: its weight in its own bucket); every other message (initialize,
 * tools/list, resources/read, prompts, notifications, a call of an unknown tool) weighs that one point. A batch (a JSON array) is refused whole: none of the protocol versions this endpoint
 * speaks (2025-06-18, 2025-11-25, 2026-07-28) has batching, so one POST is one message.
 */
import { ApiError } from '../../kernel/errors';
import type { Tool } from '../../tools/tool';
import type { RateBucket, RateLimits } from '../rate-limit';

export const BATCH_REFUSED = 'Batches are not supported: send one JSON-RPC message per POST (no protocol version this endpoint speaks has batching).';

export interface MessageCost {
  bucket: RateBucket;
  points: number;
  /** The registry tool the message calls, when it is a tools/call of one. */
  tool: Tool | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function messageCost(body: unknown, tools: readonly Tool[]): MessageCost {
  const params = isObject(body) && body.method === 'tools/call' && isObject(body.params) ? body.params : null;
  const tool = params && typeof params.name === 'string' ? (tools.find((t) => t.name === params.name) ?? null) : null;
  return tool ? { bucket: tool.rateBucket ?? 'default', points: tool.cost ?? 1, tool } : { bucket: 'default', points: 1, tool: null };
}

/** The point every POST takes before its body is read. */
export const DOOR_POINT: MessageCost = { bucket: 'default', points: 1, tool: null };

/** What a message still owes once the door point is paid: the rest of its weight (its own bucket's whole weight). */
export function afterTheDoor(cost: MessageCost): MessageCost {
  return cost.bucket === 'default' ? { ...cost, points: cost.points - 1 } : cost;
}

/** The refusal when the client's bucket cannot pay for the message, else null (the points are taken). */
export async function admit(limits: RateLimits, clientKey: string, cost: MessageCost): Promise<ApiError | null> {
  if (cost.points <= 0) return null;
  try {
    await limits.consume(clientKey, cost.bucket, cost.points);
    return null;
  } catch (err) {
    if (err instanceof ApiError && err.code === 'rate_limited') return err;
    throw err;
  }
}
