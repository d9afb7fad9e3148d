/**
 * The shared setup of the booking_intent_tool tests (test/e2e/booking-intent-*.test.ts): 80 generated
 * homes, and the calls the tests make through the SDK's MCP client.
 */
import type { Writable } from 'node:stream';
import { startFixture, type Fixture } from '../../support/fixture';
import { addDays } from '../../../services/kernel/engine/dates';
import type { HomeRecord } from '../../../services/kernel/inventory/records';
import { checkStay } from '../../../services/kernel/engine/stay-check';

/** The service on 80 homes, and its published homes; with `logDestination`, every log line at trace level goes there. */
export async function startIntentFixture(logDestination?: Writable): Promise<{ fx: Fixture; homes: HomeRecord[] }> {
  const fx = await startFixture(logDestination ? { homes: 80, env: { LOG_LEVEL: 'trace' }, logDestination } : { homes: 80 });
  const homes = await fx.mongo.collections.homes.find({ published: true, deleted_at: null }).toArray();
  return { fx, homes };
}

/** The calls and checks of the tests, on the fixture and the homes the file started (read when called). */
export function intentCalls(fixture: () => Fixture, homes: () => HomeRecord[]) {
  async function intent(args: Record<string, unknown>) {
    const client = await fixture().mcp();
    return client.callTool({ name: 'booking_intent_tool', arguments: args });
  }

  async function saved(args: Record<string, unknown>): Promise<Record<string, any>> {
    const result = await intent(args);
    expect(result.isError).toBeFalsy();
    return result.structuredContent as Record<string, any>;
  }

  function failure(result: Awaited<ReturnType<typeof intent>>): { code: string; message: string } {
    expect(result.isError).toBe(true);
    return JSON.parse((result.content as Array<{ text: string }>)[0].text).error;
  }

  const records = (email: string) => fixture().mongo.collections.bookingIntents.countDocuments({ email });

  /** A fixed stay the engine books, and one it does not, for some home. */
  function stays(): { home: HomeRecord; bookable: { start: string; end: string }; blocked: { start: string; end: string } } {
    for (const home of homes()) {
      let bookable: { start: string; end: string } | null = null;
      let blocked: { start: string; end: string } | null = null;
      for (let d = 1; d < 200 && (!bookable || !blocked); d += 3) {
        const start = addDays(fixture().today, d);
        const end = addDays(start, 45);
        const ok = checkStay(home, { kind: 'fixed', start_date: start, end_date: end }, { cats: 0, dogs: 0 }, fixture().today).available;
        if (ok) bookable ??= { start, end };
        else blocked ??= { start, end };
      }
      if (bookable && blocked) return { home, bookable, blocked };
    }
    throw new Error('no home with both a bookable and a blocked stay');
  }

  return { intent, saved, failure, records, stays };
}
