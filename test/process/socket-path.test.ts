// The socket.io path on the API server answers plain HTTP polling requests without taking the process down.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startTs, stopAll, waitForHttp } from '../support/processes.js';

const dataDir = mkdtempSync(join(tmpdir(), 'lumibase-socket-path-'));
afterAll(async () => {
  await stopAll();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /socket.io/ over plain HTTP', () => {
  it('is answered by socket.io alone, and the server keeps serving', async () => {
    const port = await freePort();
    const started = startTs('server/src/main.ts', {
      env: { PORT: String(port), DATA_DIR: dataDir, REDIS_URL: process.env.LUMIBASE_TEST_REDIS_URL ?? '' },
    });
    await waitForHttp(`http://127.0.0.1:${port}/readyz`);
    const polling = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling`);
    expect(polling.status).toBe(200);
    expect(await polling.text()).toMatch(/^0\{"sid":/);
    const unknown = await fetch(`http://127.0.0.1:${port}/socket.io/?EIO=4&transport=polling&sid=nope`);
    expect(unknown.status).toBe(400);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(started.child.exitCode).toBeNull();
    expect(await started.stop('SIGTERM')).toBe(0);
  });
});
