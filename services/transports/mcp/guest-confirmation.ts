/**
 * The guest's own word before a write (spec: booking_intent_tool rule 1; MCP 2026-07-28 input-required
 * results). When the client declared elicitation, the first call answers with a form that shows the
 * exact details to be saved; the client asks the person and calls again with the answer. Only an
 * accepted, ticked answer about the same details lets the write run; anything else saves nothing.
 * Clients without elicitation (and every 2025 client) are served as before: guest_consent decides.
 */
import { createHash } from 'node:crypto';
import { inputRequired, inputResponse, type CallToolResult, type InputRequiredResult, type ServerContext } from '@modelcontextprotocol/server';
import { ApiError } from '../../kernel/errors';
import type { AnyTool } from '../../tools/tool';

/** The key of the one input request, in `inputRequests` and `inputResponses`. */
export const CONFIRMATION_KEY = 'guest_confirmation';

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Yes, save these details and let the team contact me', default: false },
  },
  required: ['confirm'],
};

const DECLINED =
  'The guest did not confirm the details to be saved, so nothing was saved. Ask again only if the guest wants to go on.';

/** Binds an answer to the details it was given for: a retry with other details is asked again. */
function detailsDigest(details: Record<string, string>): string {
  return createHash('sha256').update(JSON.stringify(details)).digest('base64url');
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

/**
 * null: go on with the write (confirmed, or this client cannot be asked). Otherwise the answer to send
 * now: the question, or the refusal of a declined, cancelled or changed confirmation.
 */
export function askGuestToConfirm(tool: AnyTool, args: unknown, ctx: ServerContext): InputRequiredResult | CallToolResult | null {
  if (!tool.confirmation || !canElicitForm(ctx)) return null;
  const { message, details } = tool.confirmation(args as never);
  const digest = detailsDigest(details);
  const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRMATION_KEY);
  if (answer.kind === 'missing') {
    return inputRequired({
      inputRequests: { [CONFIRMATION_KEY]: inputRequired.elicit({ mode: 'form', message, requestedSchema: CONFIRM_SCHEMA }) },
      requestState: digest,
    });
  }
  const sameDetails = ctx.mcpReq.requestState() === digest;
  const confirmed = answer.kind === 'elicit' && answer.action === 'accept' && answer.content?.confirm === true;
  if (confirmed && sameDetails) return null;
  const reason = confirmed ? 'The details changed after the guest confirmed them: nothing was saved; call again to ask the guest.' : DECLINED;
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(new ApiError('consent_declined', reason, 400).toBody()) }] };
}
