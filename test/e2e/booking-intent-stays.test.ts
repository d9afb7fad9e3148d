/**
 * booking_intent_tool, the single write: the stay of an intent (the quote's stay checks, the checkout
 * link) and what repeat calls of one email keep,
 * through the tool server on the real MongoDB-wire server (docs/contract.md, "booking_intent_tool",
 * "Errors"; setup: test/e2e/shared/booking-intent.ts).
 */
import type { Fixture } from '../support/fixture';
import { addDays } from '../../services/kernel/engine/dates';
import type { HomeRecord } from '../../services/kernel/inventory/records';
import { offeredTiers } from '../../services/kernel/engine/flex';
import { intentCalls, startIntentFixture } from './shared/booking-intent';

let fx: Fixture;
let homes: HomeRecord[];

beforeAll(async () => {
  ({ fx, homes } = await startIntentFixture());
});

afterAll(async () => {
  await fx?.close();
});

const { intent, saved, failure, records, stays } = intentCalls(
  () => fx,
  () => homes,
);

describe('booking_intent_tool stays', () => {
  it('fills the checkout link with home and dates for a bookable stay, and leaves the dates out of a blocked one it still records', async () => {
    const { home, bookable, blocked } = stays();
    const ok = await saved({ email: 'stay-ok@example.com', home_slug: home.slug, start_date: bookable.start, end_date: bookable.end, guest_consent: true });
    expect(ok.checkout_url).toBe(`${fx.config.checkoutBaseUrl}/${home.slug}?start_date=${bookable.start}&end_date=${bookable.end}`);
    expect(ok).toMatchObject({ home_slug: home.slug, start_date: bookable.start, end_date: bookable.end, requested_stay: { available: true } });
    const no = await saved({ email: 'stay-blocked@example.com', home_slug: home.slug, start_date: blocked.start, end_date: blocked.end, guest_consent: true });
    expect(no.checkout_url).toBe(`${fx.config.checkoutBaseUrl}/${home.slug}`);
    // The answer says the stay cannot be booked, with the quote's reason, so an agent does not promise pre-filled dates.
    const quote = (await fx.get(`/api/public/homes/${home.slug}/quote?check_in=${blocked.start}&check_out=${blocked.end}`)).body;
    expect(no.requested_stay).toEqual({ available: false, unavailable_reason: quote.unavailable_reason });
    expect(no.warning).toBeUndefined();
    const record = await fx.mongo.collections.bookingIntents.findOne({ email: 'stay-blocked@example.com' });
    expect(record?.calls).toEqual([expect.objectContaining({ home_slug: home.slug, start_date: blocked.start, end_date: blocked.end })]);
  });

  it('refuses an unknown home, an unoffered Flex tier and "indefinite" without committed_nights, saving nothing', async () => {
    const email = 'stay-refused@example.com';
    const flexHome = homes.find((h) => offeredTiers(h).length > 0)!;
    const start = addDays(fx.today, 20);
    expect(failure(await intent({ email, home_slug: 'no-such-home', guest_consent: true })).code).toBe('home_not_found');
    expect(
      failure(await intent({ email, home_slug: flexHome.slug, start_date: start, end_date: 'indefinite', committed_nights: 999, guest_consent: true })).code,
    ).toBe('tier_not_offered');
    expect(failure(await intent({ email, home_slug: flexHome.slug, start_date: start, end_date: 'indefinite', guest_consent: true })).code).toBe(
      'invalid_parameters',
    );
    expect(failure(await intent({ email, start_date: start, end_date: addDays(start, 30), guest_consent: true })).code).toBe('invalid_parameters');
    expect(await records(email)).toBe(0);
  });
});

describe('booking_intent_tool repeat calls', () => {
  const recordOf = (email: string) => fx.mongo.collections.bookingIntents.findOne({ email });

  it("a repeat call for the same email keeps the earlier call's home and dates", async () => {
    const { home, bookable } = stays();
    const email = 'keeps-stay@example.com';
    await saved({ email, home_slug: home.slug, start_date: bookable.start, end_date: bookable.end, guest_consent: true });
    await saved({ email, guest_consent: true });
    const record = await recordOf(email);
    expect(record?.calls.map(({ home_slug, start_date, end_date, committed_nights }) => ({ home_slug, start_date, end_date, committed_nights }))).toEqual([
      { home_slug: home.slug, start_date: bookable.start, end_date: bookable.end, committed_nights: null },
      { home_slug: null, start_date: null, end_date: null, committed_nights: null },
    ]);
    expect(await records(email)).toBe(1);
  });

  it('keeps the last 20 calls of an email, newest last', async () => {
    const email = 'bounded@example.com';
    const slugs = homes.slice(0, 25).map((h) => h.slug);
    for (const home_slug of slugs) await saved({ email, home_slug, guest_consent: true });
    const record = await recordOf(email);
    expect(record?.calls.map((c) => c.home_slug)).toEqual(slugs.slice(-20));
  });

  it('a repeat call after 30 days adds the contact details it sends and never erases one it omits', async () => {
    const email = 'keeps-contact@example.com';
    await saved({ email, phone: '+14155550111', name: 'Kept Name', guest_consent: true });
    const past = () => fx.mongo.collections.bookingIntents.updateOne({ email }, { $set: { contact_saved_at: new Date(Date.now() - 31 * 86_400_000) } });
    await past();
    const bare = await saved({ email, guest_consent: true });
    expect(bare.phone).toBeUndefined();
    expect(await recordOf(email)).toMatchObject({ phone: '+14155550111', name: 'Kept Name' });
    const nameOnly = await saved({ email, name: 'New Name', guest_consent: true });
    expect(nameOnly).toMatchObject({ name: 'New Name' });
    expect(await recordOf(email)).toMatchObject({ phone: '+14155550111', name: 'New Name' });
    await past();
    await saved({ email, phone: 'not a phone', guest_consent: true });
    expect(await recordOf(email)).toMatchObject({ phone: '+14155550111', name: 'New Name' });
  });

  it('records with each call the consent statement, its version, the time and the transport', async () => {
    const email = 'consent-kept@example.com';
    const before = Date.now();
    await saved({ email, guest_consent: true });
    const record = await recordOf(email);
    const [call] = record!.calls;
    expect(call.at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(call.consent).toEqual({
      wording: expect.stringMatching(/told which details are saved/),
      wording_version: expect.stringMatching(/^[0-9a-f]{12}$/),
      via: 'guest_consent',
      transport: 'mcp-2025',
    });
  });
});
