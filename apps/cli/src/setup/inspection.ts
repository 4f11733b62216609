import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createRecorder,
  recordTeams,
  type TeamEventSource,
  type Timeline,
  type TimelineRecord,
} from '@troupe/inspect';
import {
  createRelay,
  inspectWithStately,
  type Relay,
  type RelayStore,
  type StatelyBridge,
} from '@troupe/inspect/node';
import { toStatelyEvents } from '@troupe/inspect/stately';
import type { InspectionEvent, Observer } from 'xstate';
import type { CliIo, OutputStream } from '../io.js';
import { openStore } from './task-store.js';

/**
 * The built web app the relay serves: `TROUPE_WEB_DIR`, else `apps/web/dist` next to this CLI in a
 * checkout. Undefined when it is not built.
 */
export function webAppDir(env: CliIo['env']): string | undefined {
  const dir = env.TROUPE_WEB_DIR ?? fileURLToPath(new URL('../../../web/dist/', import.meta.url));
  return existsSync(`${dir}/index.html`) ? dir : undefined;
}

/** Values of environment variables that look like credentials: never recorded or sent to an inspector. */
export function secretsOf(env: CliIo['env']): string[] {
  return Object.entries(env)
    .filter(([name, value]) => value && /KEY|TOKEN|SECRET|PASSWORD|AUTH/i.test(name))
    .map(([, value]) => value!);
}

/** A live runtime's inspection: the observer to give `createRuntime`, and what to close at the end. */
export interface LiveInspection {
  inspect: Observer<InspectionEvent>;
  /** Follows what the runtime's observer does not see: its agent teams' events (`--inspect` only). */
  follow(runtime: TeamEventSource): void;
  relay?: Relay;
  stately?: StatelyBridge;
  close(): Promise<void>;
}

/**
 * Starts what `--inspect` (the offline inspector, through the local relay) and `--stately` (the
 * hosted Stately inspector, which needs the internet) ask for, and says where to look on `out`.
 * With `storeDir`, the inspector page may also open (replay) any task of that store.
 * Undefined when neither was asked for.
 */
export async function startLiveInspection(
  io: Pick<CliIo, 'env'>,
  options: { inspect?: boolean | undefined; stately?: boolean | undefined },
  out: OutputStream,
  storeDir?: string,
): Promise<LiveInspection | undefined> {
  if (!options.inspect && !options.stately) return undefined;
  const secrets = secretsOf(io.env);
  const observers: Observer<InspectionEvent>[] = [];
  let relay: Relay | undefined;
  let stately: StatelyBridge | undefined;
  let store: RelayStore | undefined;
  let follow: LiveInspection['follow'] = () => {};
  if (options.inspect) {
    const recorder = createRecorder({ secrets, keep: false });
    follow = (runtime) => {
      recordTeams(runtime, recorder);
    };
    store = storeDir ? relayStore(io, storeDir) : undefined;
    relay = await openRelay(io, out, { header: recorder.header, ...(store ? { store } : {}) });
    const target = relay;
    recorder.subscribe((record) => target.publish(record));
    observers.push(recorder.inspect);
  }
  if (options.stately) {
    stately = openStately(io, out);
    observers.push(stately.inspect);
  }
  return {
    inspect: {
      next: (event) => {
        for (const observer of observers) observer.next?.(event);
      },
    },
    follow,
    ...(relay ? { relay } : {}),
    ...(stately ? { stately } : {}),
    async close() {
      stately?.stop();
      await relay?.close();
      await store?.store.close?.();
    },
  };
}

/** The CLI's file store in `dir`, for the relay: read only, replays redacted like live records. */
export function relayStore(io: Pick<CliIo, 'env'>, dir: string): RelayStore {
  return { store: openStore(dir), name: dir, secrets: secretsOf(io.env) };
}

/**
 * Opens the relay and prints the inspector's address: the relay streams `header` and `records`
 * (a live timeline or a replay), and/or lets the page open the tasks of `store`.
 */
export async function openRelay(
  io: Pick<CliIo, 'env'>,
  out: OutputStream,
  source: { header?: Timeline['header']; records?: readonly TimelineRecord[]; store?: RelayStore },
): Promise<Relay> {
  const appDir = webAppDir(io.env);
  const port = Number(io.env.TROUPE_INSPECT_PORT ?? 0);
  const relay = await createRelay({
    ...(source.header ? { header: source.header } : {}),
    ...(source.store ? { store: source.store } : {}),
    port: Number.isInteger(port) ? port : 0,
    ...(appDir ? { appDir } : {}),
  });
  for (const record of source.records ?? []) relay.publish(record);
  const tasks = source.store ? ` (it opens the tasks of ${source.store.name})` : '';
  out.write(
    appDir
      ? `Inspector: ${relay.inspectorUrl}${source.header ? '' : tasks}\n`
      : `Inspector: the web app is not built (run \`pnpm build\` in the troupe checkout)${
          source.header ? `; the timeline streams at ${relay.url}/timeline/events` : ''
        }${source.store ? `; the store's tasks are at ${relay.url}/store/tasks` : ''}\n`,
  );
  return relay;
}

/** Starts the bridge to the hosted Stately inspector and prints its address. */
export function openStately(io: Pick<CliIo, 'env'>, out: OutputStream, timeline?: Timeline): StatelyBridge {
  const port = Number(io.env.TROUPE_STATELY_PORT ?? 8080);
  const bridge = inspectWithStately({
    port: Number.isInteger(port) ? port : 8080,
    secrets: secretsOf(io.env),
  });
  if (timeline) for (const event of toStatelyEvents(timeline)) bridge.send(event as never);
  out.write(`Stately inspector: ${bridge.url} (it embeds https://stately.ai/inspect: needs the internet)\n`);
  return bridge;
}
