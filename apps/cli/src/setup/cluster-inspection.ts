import { followStoredTask } from '@troupe/inspect';
import type { Relay, StatelyBridge } from '@troupe/inspect/node';
import { createStatelyExpander } from '@troupe/inspect/stately';
import { CLUSTER_EVENTS, type ClusterClient } from '@troupe/postgres';
import type { CliIo, OutputStream } from '../io.js';
import { openRelay, openStately, secretsOf } from './inspection.js';

/** How often the journal is read anyway while the task runs (a notification can be lost). */
const POLL_MS = 1_000;

/** A cluster task followed in the inspectors; `close` replays what is left, then closes them. */
export interface ClusterInspection {
  relay?: Relay;
  stately?: StatelyBridge;
  close(): Promise<void>;
}

/**
 * `troupe run --postgres URL --inspect/--stately`: the task runs in a worker, so its actors are
 * not in this process. It is followed through the cluster's store instead: each time the cluster
 * reports an event of the task (and every second), the journal entries written since are replayed
 * through the task's machine here (no model, no tool) and the replay's timeline streams to the
 * local relay and/or the Stately inspector — the same states, events and context as the worker's.
 */
export async function inspectClusterTask(
  io: Pick<CliIo, 'env'>,
  options: { inspect?: boolean | undefined; stately?: boolean | undefined },
  client: ClusterClient,
  taskId: string,
  out: OutputStream,
): Promise<ClusterInspection> {
  const sinks: ((record: Parameters<Relay['publish']>[0]) => void)[] = [];
  const follower = followStoredTask(client.store, taskId, {
    secrets: secretsOf(io.env),
    storeName: 'postgres',
    onRecord: (record) => {
      for (const sink of sinks) sink(record);
    },
  });
  const relay = options.inspect ? await openRelay(io, out, { header: follower.header }) : undefined;
  if (relay) sinks.push((record) => relay.publish(record));
  const stately = options.stately ? openStately(io, out) : undefined;
  if (stately) {
    const expand = createStatelyExpander(follower.header);
    sinks.push((record) => {
      const event = expand(record);
      if (event) stately.send(event as never);
    });
  }
  let warned = false;
  const catchUp = () =>
    follower.catchUp().catch((error: Error) => {
      if (!warned) out.write(`troupe: the inspector cannot follow task ${taskId}: ${error.message}\n`);
      warned = true;
      return 0;
    });
  // Every event a worker forwards about the task means its journal may have grown.
  const offs = CLUSTER_EVENTS.map((name) =>
    client.on(name, (event) => {
      if ((event as { taskId?: string }).taskId === taskId) void catchUp();
    }),
  );
  const poller = setInterval(() => void catchUp(), POLL_MS);
  poller.unref();
  void catchUp();
  return {
    ...(relay ? { relay } : {}),
    ...(stately ? { stately } : {}),
    async close() {
      clearInterval(poller);
      for (const off of offs) off();
      await catchUp();
      follower.stop();
      stately?.stop();
      await relay?.close();
    },
  };
}
