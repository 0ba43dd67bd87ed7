// Load generator: sends HTTP requests at a fixed concurrency, each list entry once (or the list over and
// over until `durationMs`), and answers every latency, the statuses and the wall time.
import { serveParent } from './serve-parent.js';

interface PlannedRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: unknown;
}

async function send(request: PlannedRequest): Promise<number> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: { ...(request.body === undefined ? {} : { 'content-type': 'application/json' }), ...request.headers },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
  await response.arrayBuffer();
  return response.status;
}

serveParent({
  async run(message) {
    const { requests, concurrency, durationMs } = message as unknown as {
      requests: PlannedRequest[];
      concurrency: number;
      durationMs?: number;
    };
    const latencies: number[] = [];
    const statuses: Record<string, number> = {};
    const started = performance.now();
    const deadline = durationMs === undefined ? Number.POSITIVE_INFINITY : started + durationMs;
    let next = 0;
    const take = (): PlannedRequest | undefined => {
      if (performance.now() >= deadline) return undefined;
      if (durationMs === undefined) return requests[next++];
      return requests[next++ % requests.length];
    };
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let request = take(); request; request = take()) {
          const begin = performance.now();
          const status = await send(request).catch(() => 0);
          latencies.push(performance.now() - begin);
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      }),
    );
    return { latencies, statuses, seconds: (performance.now() - started) / 1000 };
  },
});
