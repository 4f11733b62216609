import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { type ClusterClient, connectCluster } from '../src/index.js';
import { startTestCluster, type TestCluster } from '../src/testing/index.js';
import { saveTool } from './fixtures/save-tool.js';

const WORKER = fileURLToPath(new URL('./fixtures/cluster-worker.ts', import.meta.url));

/** The agents and tools the worker fixture has; a client needs the same names to validate. */
export const clusterAgents = [
  { name: 'writer', description: 'writes notes', systemPrompt: 'Write.', tools: ['save'] },
];
export const clusterTools = [saveTool()];

/** A worker process of the fixture. */
export interface WorkerProcess {
  id: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** A Postgres server, one database with the probe tables, and worker processes on it. */
export class ClusterHarness {
  readonly workers = new Map<string, WorkerProcess>();
  pool!: pg.Pool;
  url!: string;
  /** The worker process's script (the fixture `cluster-worker.ts` unless a test sets another). */
  workerScript = WORKER;
  private constructor(readonly cluster: TestCluster) {}

  static async start(database: string, sessions: readonly string[]): Promise<ClusterHarness> {
    const harness = new ClusterHarness(await startTestCluster());
    harness.url = await harness.cluster.createDatabase(database);
    harness.pool = new pg.Pool({ connectionString: harness.url, max: 4 });
    harness.pool.on('error', () => {});
    harness.pool.on('connect', (client) => client.on('error', () => {}));
    await harness.pool.query(`
      CREATE TABLE probe_running (scope text PRIMARY KEY, running int NOT NULL DEFAULT 0, peak int NOT NULL DEFAULT 0);
      CREATE TABLE probe_calls (id bigserial PRIMARY KEY, task_id text, session text, turn int, worker text,
                                at timestamptz DEFAULT clock_timestamp());
      CREATE TABLE probe_writes (id bigserial PRIMARY KEY, task_id text, tool_use_id text, worker text);
      CREATE TABLE probe_once (key text PRIMARY KEY);
      CREATE TABLE probe_lost (task_id text, worker text);
    `);
    await harness.pool.query('INSERT INTO probe_running (scope) SELECT unnest($1::text[])', [
      ['*', ...sessions],
    ]);
    return harness;
  }

  /**
   * Starts a worker process (approvals `auto` unless `ask`; taken for dead after `deadAfterMs`,
   * default 4 s; running at most `workerConcurrency` tasks at once, default the cluster's limit)
   * and resolves once it is dequeuing.
   */
  async startWorker(
    id: string,
    approval: 'auto' | 'ask' = 'auto',
    deadAfterMs = 4_000,
    workerConcurrency?: number,
  ): Promise<WorkerProcess> {
    const args = [this.url, id, approval, String(deadAfterMs)];
    if (workerConcurrency !== undefined) args.push(String(workerConcurrency));
    const child = fork(this.workerScript, args, {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const output: string[] = [];
    child.stdout?.on('data', (chunk) => output.push(String(chunk)));
    child.stderr?.on('data', (chunk) => output.push(String(chunk)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const worker: WorkerProcess = { id, child, output, exited };
    this.workers.set(id, worker);
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      void exited.then((code) =>
        reject(new Error(`worker ${id} exited (${code}) before it was ready:\n${output.join('')}`)),
      );
    });
    return worker;
  }

  /** SIGKILLs a worker process and waits until it is gone. */
  async kill(id: string): Promise<void> {
    const worker = this.workers.get(id);
    if (!worker) throw new Error(`no worker ${id}`);
    worker.child.kill('SIGKILL');
    await worker.exited;
    this.workers.delete(id);
  }

  /** The worker running a task (from the store). */
  async workerOf(taskId: string): Promise<string> {
    const { rows } = await this.pool.query('SELECT worker_id FROM troupe.tasks WHERE task_id = $1', [taskId]);
    return rows[0]?.worker_id;
  }

  /** Polls `check` every 50 ms until it returns a truthy value (max `ms`). */
  async until<T>(check: () => Promise<T | undefined | false>, what: string, ms = 60_000): Promise<T> {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const value = await check();
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  async stop(): Promise<void> {
    await Promise.all(
      [...this.workers.values()].map(async (worker) => {
        worker.child.kill('SIGTERM');
        const timer = setTimeout(() => worker.child.kill('SIGKILL'), 3_000);
        await worker.exited;
        clearTimeout(timer);
      }),
    );
    this.workers.clear();
    await this.pool?.end().catch(() => {});
    await this.cluster.destroy();
  }
}

/**
 * For a test file: before its tests, a cluster harness on database `database` with `sessions`
 * probed, the workers `startWorkers` starts, and a client with the tests' limits (5 at once, 2 per
 * session), handed to `ready`; after them, the client closed and everything stopped.
 */
export function useRunningCluster(
  database: string,
  sessions: readonly string[],
  startWorkers: (harness: ClusterHarness) => Promise<unknown>,
  ready: (started: { harness: ClusterHarness; client: ClusterClient }) => void,
): void {
  let harness: ClusterHarness | undefined;
  let client: ClusterClient | undefined;
  beforeAll(async () => {
    harness = await ClusterHarness.start(database, sessions);
    await startWorkers(harness);
    client = await connectCluster({
      postgres: harness.url,
      agents: clusterAgents,
      tools: clusterTools,
      limits: { maxConcurrent: 5, maxPerSession: 2 },
    });
    ready({ harness, client });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await harness?.stop();
  }, 60_000);
}
