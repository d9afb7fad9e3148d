/** booking_intent_tool — tool server only; the single write (docs/contract.md, "booking_intent_tool"). */
import type { FromSchema } from 'json-schema-to-ts';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { ApiError, badRequest } from '../kernel/errors';
import { checkFlexTier, checkStay } from '../kernel/engine/stay-check';
import { committedNightsSchema, endDateSchema, isoDateSchema } from '../kernel/inventory/schema-pieces';
import { intentBudgetOf } from '../booking-intents/budget';
import { consentOf, wordingVersion } from '../booking-intents/consent';
import { keepIntent, recordedIntent, REPEAT_WINDOW_DAYS } from '../booking-intents/store';
import { reservationLink, type LinkDates } from '../homes/links';
import { loadHome } from '../homes/repository';
import { readStay } from '../stays/read-stay';
import { stayRequestOf } from '../stays/stay-dates';
import { QUOTE_STAY_POLICY } from '../stays/stay-policies';
import { defineTool, type ToolContext } from './tool';

/** What the agent must tell the guest before sending guest_consent: true; recorded as the wording of such a call. */
const CONSENT_STATEMENT =
  'Must be true, and only after the guest was told which details are saved (email, plus phone and name if given) and ' +
  'that the operator may contact them, and explicitly agreed. Never submit someone else’s details.';

/** The question the client's form shows the guest, before the quoted details. */
const CONFIRMATION_QUESTION = 'Save these contact details with the furnished-apartment operator for this booking, and let its team contact you about it? ';

const inputSchema = {
  type: 'object',
  properties: {
    email: { type: 'string', format: 'email', maxLength: 254, description: "The guest's email: one record per email, used for follow-up." },
    phone: { type: 'string', maxLength: 40, description: 'Optional phone, E.164 preferred (+15551234567); US numbers without a country code are read as US.' },
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'Optional guest full name.' },
    home_slug: { type: 'string', minLength: 1, maxLength: 200, description: 'Optional apartment the guest intends to book.' },
    start_date: { ...isoDateSchema, description: 'Optional move-in date, YYYY-MM-DD.' },
    end_date: endDateSchema,
    committed_nights: { ...committedNightsSchema, description: 'Flex tier; required with end_date "indefinite". An unoffered tier is refused.' },
    guest_consent: { type: 'boolean', description: CONSENT_STATEMENT },
  },
  required: ['email', 'guest_consent'],
  additionalProperties: false,
} as const;

const outputSchema = {
  type: 'object',
  properties: {
    checkout_url: { type: 'string', description: 'Where the guest creates an account and adds a payment method to finish.' },
    intent_id: { type: 'string', description: 'Reference for support; the same for every call with this email.' },
    email: { type: 'string' },
    phone: { type: 'string', description: 'E.164; echoed only when this call saved it.' },
    name: { type: 'string', description: 'Echoed only when this call saved it.' },
    home_slug: { type: 'string' },
    start_date: { type: 'string' },
    end_date: { type: 'string' },
    warning: { type: 'string', description: 'Present only when a sent value was dropped as invalid (an unreadable phone).' },
    requested_stay: {
      type: 'object',
      description:
        'With a home and dates: whether that stay can be booked. When it cannot, the intent is still saved but checkout_url ' +
        'leaves the dates out; tell the guest, and find bookable dates with get_apartment_tool or get_quote_tool.',
      properties: { available: { type: 'boolean' }, unavailable_reason: { type: 'string' } },
      required: ['available'],
      additionalProperties: false,
    },
  },
  required: ['checkout_url', 'intent_id', 'email'],
  additionalProperties: false,
} as const;

type IntentResult = FromSchema<typeof outputSchema>;

export const CONSENT_RULE =
  'guest_consent must be true: tell the guest which details will be saved (email, plus phone and name if given) and ' +
  'that the operator’s team may contact them, and send true only after they explicitly agree. Nothing was saved.';

/** E.164, or null when the text is not a phone number (then the intent carries a warning). */
export function readPhone(raw: string): string | null {
  const parsed = parsePhoneNumberFromString(raw.trim(), 'US');
  return parsed?.isValid() ? parsed.number : null;
}

type IntentArgs = FromSchema<typeof inputSchema>;

/** The intent as it would be saved, every rule checked (consent, dates as the quote reads them, home, tier); no write. */
async function prepareIntent(args: IntentArgs, { deps, today }: ToolContext) {
  if (args.guest_consent !== true) throw new ApiError('consent_required', CONSENT_RULE, 400);
  const email = args.email.trim().toLowerCase();
  const phone = args.phone !== undefined ? readPhone(args.phone) : null;
  const name = args.name?.trim() || null;
  // Dates are read as the quote reads them (docs/contract.md, booking_intent_tool rule 6).
  const dates = readStay(args, today, QUOTE_STAY_POLICY);
  if (dates.kind !== 'undated' && args.home_slug === undefined) {
    throw badRequest('invalid_parameters', 'Dates need the apartment they are for: pass home_slug with start_date and end_date.');
  }
  let prefill: LinkDates | null = null;
  let requested: IntentResult['requested_stay'] | null = null;
  let link = deps.config.checkoutBaseUrl;
  if (args.home_slug !== undefined) {
    const { home } = await loadHome(deps, args.home_slug);
    if (dates.kind === 'flex') {
      const tier = checkFlexTier(home, dates.committed_nights);
      if (tier && !tier.available) throw badRequest('tier_not_offered', `${tier.unavailable_reason} Check get_flex_options_tool for "${home.slug}".`);
    }
    // A stay that cannot be booked is still recorded; its link leaves the dates out, and the answer says why.
    const stay = stayRequestOf(dates);
    if (stay) {
      const check = checkStay(home, stay, { cats: 0, dogs: 0 }, today);
      requested = check.available ? { available: true } : { available: false, unavailable_reason: check.unavailable_reason };
      if (check.available) prefill = stay;
    }
    link = reservationLink(deps.config.checkoutBaseUrl, home.slug, prefill);
  }
  return { email, phone, name, dates, link, requested };
}

export const bookingIntentTool = defineTool<IntentArgs, IntentResult>({
  name: 'booking_intent_tool',
  title: 'Save a booking intent and get the checkout link',
  description:
    "Saves a guest's intent to book (email, optional phone and name, optional apartment and dates) and returns the " +
    'checkout_url where the guest creates an account and adds a payment method to finish the reservation. Call it ' +
    'only after the guest agreed to share these details: guest_consent must be true. One record per email: repeat ' +
    `calls add to it (contact details given within the last ${REPEAT_WINDOW_DAYS} days are kept, not overwritten). Dates and Flex tier ` +
    'are checked like get_quote_tool; a stay that is not bookable is still saved and the link leaves the dates out. ' +
    'An unreadable phone is dropped with a warning.',
  inputSchema,
  outputSchema,
  // Writes, but a repeat call with the same email changes nothing more: idempotent per email, never destructive.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async confirmation(args, ctx) {
    // Everything the write would refuse is refused before the guest is asked (nobody confirms a call bound to fail).
    const intent = await prepareIntent(args, ctx);
    // What keepIntent would keep (docs/contract.md, booking_intent_tool rule 1: email, plus phone and name if given).
    const details: Record<string, string> = { email: intent.email };
    if (args.phone !== undefined) details.phone = intent.phone ?? `${args.phone} (unreadable: it will not be saved)`;
    if (intent.name) details.name = intent.name;
    return {
      // Each value quoted: a name cannot pass itself off as another detail.
      message:
        CONFIRMATION_QUESTION +
        Object.entries(details)
          .map(([label, value]) => `${label}: ${JSON.stringify(value)}`)
          .join('; ') +
        '.',
      wordingVersion: wordingVersion(CONFIRMATION_QUESTION),
      details,
    };
  },
  async handler(args, ctx) {
    const { email, phone, name, dates, link, requested } = await prepareIntent(args, ctx);
    // The write's own budget: past the address's a refusal saves nothing; past the email's the call is
    // answered as a repeat from the kept record and saves nothing (a record gone meanwhile is written anew).
    const budget = await intentBudgetOf(ctx.deps).spend(ctx.request.clientKey, email);
    const call = {
      home_slug: args.home_slug ?? null,
      start_date: args.start_date ?? null,
      end_date: args.end_date ?? null,
      committed_nights: dates.kind === 'flex' ? dates.committed_nights : null,
      consent: consentOf(ctx.request.transport, ctx.request.confirmed, CONSENT_STATEMENT),
    };
    const saved =
      (budget === 'read_only' ? await recordedIntent(ctx.deps, email, ctx.now) : null) ?? (await keepIntent(ctx.deps, { email, phone, name, call }, ctx.now));
    return {
      data: {
        checkout_url: link,
        intent_id: saved.intentId,
        email,
        ...(saved.contactSaved && phone ? { phone } : {}),
        ...(saved.contactSaved && name ? { name } : {}),
        ...(args.home_slug !== undefined ? { home_slug: args.home_slug } : {}),
        ...(args.start_date !== undefined ? { start_date: args.start_date } : {}),
        ...(args.end_date !== undefined ? { end_date: args.end_date } : {}),
        ...(requested ? { requested_stay: requested } : {}),
        ...(args.phone !== undefined && phone === null
          ? { warning: 'The phone number could not be read and was not saved; the intent was saved without it.' }
          : {}),
      },
    };
  },
});
