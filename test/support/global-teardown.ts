/** Stops the run's browser server and the containers the setup started; the local stack is left running for the next run. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__CATALOG_TEST_BROWSER__?.close();
  await globalThis.__CATALOG_TEST_STACK__?.stop();
}
