import { describe, expect, it } from '@jest/globals';
import { Agent, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rawRequest } from '@petstore/test-support';
import { createDrainableServer } from './drain.js';

/** A server whose responses wait until the test answers them, listening on loopback. */
async function heldServer() {
  const waiting: ServerResponse[] = [];
  const held = createDrainableServer({ keepAliveTimeout: 5_000 }, (_request, response) => void waiting.push(response));
  await new Promise<void>((resolve) => held.server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(held.server.address() as AddressInfo).port}/`;
  const next = async () => {
    while (waiting.length === 0) await new Promise((resolve) => setImmediate(resolve));
    return waiting.shift()!;
  };
  return { ...held, url, next };
}

describe('a drainable server', () => {
  it('answers in keep-alive while running', async () => {
    const { server, drain, url, next } = await heldServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answered = rawRequest(url, { agent });
    (await next()).end('ok');
    expect((await answered).headers['connection']).toBe('keep-alive');
    agent.destroy();
    await drain(1_000);
    expect(server.listening).toBe(false);
  }, 15_000);

  it('makes a response in flight when the drain starts say Connection: close, and waits for it', async () => {
    const { server, drain, url, next } = await heldServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answered = rawRequest(url, { agent });
    const inFlight = await next();
    let drained = false;
    const draining = drain(10_000).then(() => (drained = true));
    // The drain waits for the response; the listener closes meanwhile.
    while (server.listening) await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    inFlight.end('finished');
    const response = await answered;
    expect(response).toMatchObject({ status: 200, text: 'finished' });
    expect(response.headers['connection']).toBe('close');
    await draining;
    agent.destroy();
  }, 15_000);

  it('answers a request sent on an idle keep-alive connection after the drain started with Connection: close', async () => {
    const { drain, url, next } = await heldServer();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const first = rawRequest(url, { agent });
    (await next()).end('first');
    expect((await first).headers['connection']).toBe('keep-alive');
    const draining = drain(10_000);
    const second = rawRequest(url, { agent });
    (await next()).end('second');
    const response = await second;
    expect(response.text).toBe('second');
    expect(response.headers['connection']).toBe('close');
    await draining;
    agent.destroy();
  }, 15_000);

  it('closes what is still open when its time runs out', async () => {
    const { drain, url, next } = await heldServer();
    const never = rawRequest(url).catch((error: { code?: string }) => error.code);
    await next();
    await drain(200);
    expect(await never).toBe('ECONNRESET');
  }, 15_000);
});
