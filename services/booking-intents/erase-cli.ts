/**
 * `npm run erase-guest -- --email guest@example.com`: erases every record the service keeps of one
 * email (./erase.ts) and prints what it removed. The email itself is not printed. Exit code 2 on
 * wrong usage, 1 when MongoDB failed (then run it again: erasing is idempotent).
 */
import { loadConfig } from '../kernel/config';
import { connectMongo } from '../kernel/store/mongo';
import { describeErased, eraseGuest } from './erase';

function emailArgument(args: string[]): string | null {
  const i = args.indexOf('--email');
  if (args.length !== 2 || i !== 0) return null;
  return args[1] ?? null;
}

async function main(): Promise<number> {
  const email = emailArgument(process.argv.slice(2));
  if (!email || !email.includes('@')) {
    process.stderr.write('usage: npm run erase-guest -- --email guest@example.com\n');
    return 2;
  }
  const config = loadConfig();
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  try {
    process.stdout.write(`${describeErased(await eraseGuest(mongo.collections, email))}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`erase-guest failed: ${(err as Error).message}\n`);
    return 1;
  } finally {
    await mongo.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`erase-guest failed: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
