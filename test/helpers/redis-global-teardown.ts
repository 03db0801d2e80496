/** The redis project's global teardown: stops the run's redis-server and removes its folder. */
export default async function redisGlobalTeardown(): Promise<void> {
  await globalThis.petstoreTestRedis?.close();
  globalThis.petstoreTestRedis = undefined;
}
