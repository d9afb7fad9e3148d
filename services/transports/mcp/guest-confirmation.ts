/**
 * The guest's own word before a write (docs/contract.md, booking_intent_tool rule 1; MCP 2026-07-28 input-required
 * results). When the client declared elicitation, the first call answers with a form that shows the
 * exact details to be saved; the client asks the person and calls again with the answer. Only an
 * accepted, ticked answer to the question asked for this very call lets the write run; anything else
 * saves nothing. Clients without elicitation that send no answer (and every 2025 client) are served as
 * before: guest_consent decides. The question's requestState is signed and expires (./request-state.ts):
 * a client cannot make up, alter or reuse one for other arguments; and it is used once (a replay of an
 * accepted answer, from anywhere, is refused).
 */
import { createHash } from 'node:crypto';
import { inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { wordingVersion, type ConfirmedWording } from '../../booking-intents/consent';
import { ApiError } from '../../kernel/errors';
import { useStateOnce } from '../../kernel/store/used-request-states';
import type { Tool, ToolContext } from '../../tools/tool';
import { signRequestState, verifyRequestState } from './request-state';

/** The key of the one input request, in `inputRequests` and `inputResponses`. */
export const CONFIRMATION_KEY = 'guest_confirmation';

const CONFIRM_TITLE = 'Yes, save these details and let the team contact me';
const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: CONFIRM_TITLE, default: false },
  },
  required: ['confirm'],
};

const DECLINED = 'The guest did not confirm the details to be saved, so nothing was saved. Ask again only if the guest wants to go on.';
const NOT_THIS_CALL =
  'The confirmation sent is not one given for this call (other arguments, no request state from the question, or ' +
  'one older than 10 minutes): nothing was saved; call again without inputResponses to ask the guest.';
const USED =
  'This confirmation was already used for a saved call, and each is used once: nothing more was saved; call again ' +
  'without inputResponses to ask the guest.';

/** Binds an answer to the call it was given for (every argument): a retry about anything else is refused. */
function callDigest(args: unknown): string {
  return createHash('sha256').update(stableJson(args)).digest('base64url');
}

/** JSON with object keys sorted, so the same arguments give the same digest whatever their order. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Whether this request's client said it can show a form to its user (2026-07-28 envelope). */
export function canElicitForm(ctx: ServerContext): boolean {
  // The SDK's published types leave the envelope's keys out: read it as the plain object it is.
  const envelope: Record<string, unknown> = { ...ctx.mcpReq.envelope };
  const capabilities = envelope['io.modelcontextprotocol/clientCapabilities'];
  if (typeof capabilities !== 'object' || capabilities === null) return false;
  const elicitation: unknown = (capabilities as Record<string, unknown>).elicitation;
  if (typeof elicitation !== 'object' || elicitation === null) return false;
  // `elicitation: {}` means form mode (the 2025-11-25 rule kept by 2026-07-28).
  return Object.keys(elicitation).length === 0 || 'form' in elicitation;
}

/** What to do with the call: answer now (the question, or a refusal), or go on with the write. */
export type ConfirmationOutcome =
  | { kind: 'answer'; result: InputRequiredResult | CallToolResult }
  /** `confirmed`: the words the person accepted, when they were asked; absent when guest_consent decides. */
  | { kind: 'proceed'; confirmed?: ConfirmedWording };

/**
 * Go on with the write when the guest confirmed, or this client cannot be asked and gave no answer.
 * Otherwise the answer to send now: the question, or the refusal of a declined, cancelled, unticked or
 * foreign answer. An answer is judged whenever one is sent, even by a client that did not declare
 * elicitation: a guest's "no" is never overruled by guest_consent.
 */
export async function askGuestToConfirm(tool: Tool, rawArgs: unknown, ctx: ServerContext, toolCtx: ToolContext): Promise<ConfirmationOutcome> {
  if (!tool.confirmationFor) return { kind: 'proceed' };
  const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRMATION_KEY);
  if (answer.kind === 'missing' && !canElicitForm(ctx)) return { kind: 'proceed' };
  // Every rule of the write first: a call bound to fail is refused before anyone is asked.
  const { args, confirmation } = await tool.confirmationFor(rawArgs, toolCtx);
  const claims = { tool: tool.name, digest: callDigest(args) };
  const secrets = toolCtx.deps.config.requestState.secrets;
  if (answer.kind === 'missing') {
    const elicit = inputRequired.elicit({ mode: 'form', message: confirmation.message, requestedSchema: CONFIRM_SCHEMA });
    return {
      kind: 'answer',
      result: inputRequired({ inputRequests: { [CONFIRMATION_KEY]: elicit }, requestState: signRequestState(claims, toolCtx.now, secrets) }),
    };
  }
  const confirmed = answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.confirm === true;
  const state = ctx.mcpReq.requestState();
  const valid = confirmed && typeof state === 'string' && verifyRequestState(state, claims, toolCtx.now, secrets) === 'valid';
  // Spent here, before the write: of two uses, concurrent or not, on any copy, exactly one goes on.
  if (valid && (await useStateOnce(toolCtx.deps.mongo.usedRequestStates, state, toolCtx.now))) {
    // What the person saw: the question with its details, and the box they ticked.
    const wording = `${confirmation.message}\n[x] ${CONFIRM_TITLE}`;
    return { kind: 'proceed', confirmed: { wording, version: wordingVersion(confirmation.wordingVersion, CONFIRM_TITLE) } };
  }
  const reason = valid ? USED : confirmed ? NOT_THIS_CALL : DECLINED;
  return {
    kind: 'answer',
    result: { isError: true, content: [{ type: 'text', text: JSON.stringify(new ApiError('consent_declined', reason, 400).toBody()) }] },
  };
}
