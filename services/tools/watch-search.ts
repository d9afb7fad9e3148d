/** watch_search_tool — tool server only, and POST /api/public/watches (docs/contract.md, "watch_search_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { ApiError, badRequest } from '../kernel/errors';
import { isoDateSchema } from '../kernel/inventory/schema-pieces';
import { intentBudgetOf } from '../booking-intents/budget';
import { consentOf, wordingVersion } from '../booking-intents/consent';
import { watchExpiry } from '../watches/expiry';
import { watchLinks } from '../watches/links';
import { claimPlace, WATCHES_PER_EMAIL } from '../watches/owners';
import { holdMatches, saveWatch } from '../watches/store';
import { emailKey, newToken, newWatchId, newWebhookSecret, tokenHash } from '../watches/token';
import { checkWebhookUrl } from '../watches/webhook-url';
import { criteriaOf, indexWatch } from '../watches/watch-index';
import { CONSENT_RULE } from './booking-intent';
import { defineTool, type ToolContext } from './tool';
import { WATCH_MAX_MATCHES, watchedMatches, watchedParams, watchedSearchSchema, type WatchedArgs } from './watched-search';

const CONSENT_STATEMENT =
  'Must be true, and only after the guest was told that their email is saved with this search and that the operator may contact ' +
  'them about homes that match it, and explicitly agreed. Never submit someone else’s details.';

const CONFIRMATION_QUESTION =
  'Save this email with the furnished-apartment operator to be told when homes match this search, and let its team contact you about it? ';

const inputSchema = {
  type: 'object',
  properties: {
    search: watchedSearchSchema,
    email: { type: 'string', format: 'email', maxLength: 254, description: "The guest's email: who is told, and who may end the watch." },
    guest_consent: { type: 'boolean', description: CONSENT_STATEMENT },
    webhook_url: {
      type: 'string',
      maxLength: 2000,
      description:
        'Optional https URL that receives each change as a POST signed per the Standard Webhooks specification (webhook-id, ' +
        'webhook-timestamp, webhook-signature with webhook_secret). A URL resolving to a loopback, private or link-local address is refused; ' +
        'redirects are not followed; an answer 410 ends the watch.',
    },
    expires_on: {
      ...isoDateSchema,
      description: "Optional last day of the watch, YYYY-MM-DD: default the search's last move-in date, or 90 days for an undated search; at most 365 days.",
    },
  },
  required: ['search', 'email', 'guest_consent'],
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    watch_id: { type: 'string', description: 'Reference for support.' },
    token: { type: 'string', description: 'The capability that reads and ends the watch: shown once, never again; keep it.' },
    feed_url: { type: 'string', description: 'GET: the changes as JSON, in order, paged with an opaque cursor.' },
    atom_url: { type: 'string', description: 'The same changes as an Atom feed, for feed readers.' },
    unwatch_url: { type: 'string', description: 'DELETE ends the watch.' },
    expires_on: { type: 'string', description: 'The last day the watch runs.' },
    total_count: { type: 'integer', description: 'How many apartments the search matches now (they are not reported as changes).' },
    webhook_secret: { type: 'string', description: 'With webhook_url: the secret its signatures are made with (whsec_…), shown once.' },
  },
  required: ['watch_id', 'token', 'feed_url', 'atom_url', 'unwatch_url', 'expires_on', 'total_count'],
  additionalProperties: false,
} as const;

type WatchArgs = FromSchema<typeof inputSchema>;
type WatchResult = FromSchema<typeof outputSchema>;

/** The watch as it would be saved, every rule checked but the budgets and the email's count; no write. */
async function prepareWatch(args: WatchArgs, { deps, today }: ToolContext) {
  if (args.guest_consent !== true) throw new ApiError('consent_required', CONSENT_RULE, 400);
  const email = args.email.trim().toLowerCase();
  const search = args.search as WatchedArgs;
  const params = await watchedParams(deps, search, today);
  const lastMoveIn = params.window ? params.window.latest : params.stay.kind === 'undated' ? null : params.stay.start_date;
  const expiresOn = watchExpiry(args.expires_on, lastMoveIn, today);
  const webhook = args.webhook_url !== undefined ? await checkWebhookUrl(args.webhook_url, deps.config.watchWebhookAllowHosts) : null;
  return { email, search, params, expiresOn, webhook };
}

export const watchSearchTool = defineTool<WatchArgs, WatchResult>({
  name: 'watch_search_tool',
  title: 'Watch a search and be told when homes start to match',
  description:
    'Saves a search (the arguments of search_apartments_tool) as a watch that records each time a home enters it (starts to match: ' +
    'published, bookable for the stay, under the price bound), drops in price by 5 % or more while it matches, or leaves it, with the ' +
    'same all-in prices as the search. Use it when a search finds nothing or too little and the guest wants to hear when something opens. ' +
    'Returns a token shown once, a JSON feed_url and an atom_url of the changes, and total_count (what matches now). Call it only after ' +
    'the guest agreed to be contacted about this search: guest_consent must be true. Optional webhook_url gets each change signed ' +
    `(Standard Webhooks). At most ${WATCHES_PER_EMAIL} live watches per email; a search matching more than ${WATCH_MAX_MATCHES} apartments is too broad.`,
  inputSchema,
  outputSchema,
  // Each call saves a new watch: not idempotent, never destructive.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async confirmation(args, ctx) {
    const watch = await prepareWatch(args, ctx);
    return {
      message: `${CONFIRMATION_QUESTION}email: ${JSON.stringify(watch.email)}.`,
      wordingVersion: wordingVersion(CONFIRMATION_QUESTION),
      details: { email: watch.email },
    };
  },
  async handler(args, ctx) {
    const { deps, now, today } = ctx;
    const { email, search, params, expiresOn, webhook } = await prepareWatch(args, ctx);
    // The booking intent's write budgets: past the address's a refusal; past the email's, a refusal too (a watch is not a repeat).
    if ((await intentBudgetOf(deps).spend(ctx.request.clientKey, email)) === 'read_only') {
      throw new ApiError('rate_limited', 'Too many writes for this email today; no watch was saved. Try again tomorrow.', 429, { 'Retry-After': '3600' });
    }
    const { total, matches } = await watchedMatches(deps, search, today);
    if (total > WATCH_MAX_MATCHES) {
      throw badRequest(
        'search_too_broad',
        `This search matches ${total} apartments; a watch takes at most ${WATCH_MAX_MATCHES}: narrow it. No watch was saved.`,
      );
    }
    const watchId = newWatchId();
    const criteria = criteriaOf(watchId, params, expiresOn);
    await claimPlace(deps, emailKey(email), watchId, today);
    const token = newToken();
    const secret = webhook ? newWebhookSecret() : null;
    await saveWatch(deps, {
      _id: watchId,
      token_hash: tokenHash(token),
      email,
      consent: consentOf(ctx.request.transport, ctx.request.confirmed, CONSENT_STATEMENT),
      search: search as Record<string, unknown>,
      criteria,
      webhook: webhook && secret ? { url: webhook.href, secret } : null,
      created_at: now,
      expires_on: expiresOn,
      ended_at: null,
      ended_reason: null,
      changes: 0,
      delivered: 0,
    });
    await holdMatches(deps, watchId, new Map(matches.map((m) => [m.homeId, { price: m.price, slug: m.slug }])));
    // Last: from here on a changed home finds this watch (its matches are already held).
    await indexWatch(deps, criteria);
    return {
      data: {
        watch_id: watchId,
        token,
        ...watchLinks(deps.config.publicBaseUrl, token),
        expires_on: expiresOn,
        total_count: total,
        ...(secret ? { webhook_secret: secret } : {}),
      },
    };
  },
});
