import { createInspector } from '@statelyai/inspect';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createActor, createMachine } from 'xstate';
import { freePort } from '../../../test/helpers/free-port.js';
import { inspectWithStately } from '../src/node/stately-bridge.js';
import { STATELY_WIRE_VERSION } from '../src/wire/stately-version.js';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('inspectWithStately', () => {
  it("sends a runtime's inspection events, redacted, through Stately's own local server to the browser side", async () => {
    const port = await freePort();
    const bridge = inspectWithStately({ port, secrets: ['super-secret-value-123'] });
    stops.push(() => bridge.stop());
    // The bridge page's side of Stately's server: a WebSocket client that receives what is relayed.
    const page = new WebSocket(`ws://127.0.0.1:${port}`);
    stops.push(() => page.close());
    const received: { type: string; snapshot?: { context?: unknown } }[] = [];
    page.on('message', (data) => received.push(JSON.parse(String(data))));
    await new Promise((resolve) => page.on('open', resolve));
    const machine = createMachine({
      id: 'door',
      initial: 'closed',
      context: { code: 'super-secret-value-123' },
      states: { closed: { on: { OPEN: 'open' } }, open: {} },
    });
    const actor = createActor(machine, { inspect: bridge.inspect });
    actor.start();
    actor.send({ type: 'OPEN' });
    await expect.poll(() => received.filter((event) => event.type === '@xstate.snapshot').length).toBe(2);
    expect(received.map((event) => event.type)).toEqual([
      '@xstate.actor',
      '@xstate.event',
      '@xstate.snapshot',
      '@xstate.event',
      '@xstate.microstep',
      '@xstate.snapshot',
    ]);
    expect(received.at(-1)).toMatchObject({ snapshot: { value: 'open', context: { code: '[redacted]' } } });
    expect(JSON.stringify(received)).not.toContain('super-secret-value-123');
    expect(bridge.url).toBe(`http://localhost:${port}`);
  });

  it('stamps the wire version the installed @statelyai/inspect uses', () => {
    let version = '';
    createInspector({ send: (event) => (version = event._version) }).event('probe', { type: 'probe' });
    expect(STATELY_WIRE_VERSION).toBe(version);
  });
});
