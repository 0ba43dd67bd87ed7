// closedSignal over a real Express server: a client that goes away aborts the work; an answered one does not.
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closedSignal } from './closed-signal.js';

const signals: AbortSignal[] = [];
let server: ReturnType<ReturnType<typeof express>['listen']>;
let url: string;

beforeAll(async () => {
  const app = express();
  app.get('/slow', (_request, response) => {
    signals.push(closedSignal(response));
    setTimeout(() => {
      if (!response.destroyed) response.json({ ok: true });
    }, 300);
  });
  app.get('/fast', (_request, response) => {
    signals.push(closedSignal(response));
    response.json({ ok: true });
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

it('aborts when the client closes the request before the answer, and not after an answer', async () => {
  const controller = new AbortController();
  const closed = fetch(`${url}/slow`, { signal: controller.signal }).catch(() => 'aborted');
  while (signals.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
  controller.abort();
  expect(await closed).toBe('aborted');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(signals[0]!.aborted).toBe(true);

  expect((await fetch(`${url}/fast`)).status).toBe(200);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(signals[1]!.aborted).toBe(false);
});
