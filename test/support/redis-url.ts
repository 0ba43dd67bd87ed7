// The Redis URL tests use, set once per run by the global setup.
export function testRedisUrl(): string {
  return process.env.LUMIBASE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
}
