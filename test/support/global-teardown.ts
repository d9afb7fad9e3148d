/** Stops containers the setup started; the local stack is left running for the next run. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__CATALOG_TEST_STACK__?.stop();
}
