/** Stops the embedded server started by globalSetup, if any. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__TALLY_EMBEDDED__?.stop();
}
