import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

/** A throwaway Postgres server in a temporary folder, for tests and benchmarks. */
export interface TestCluster {
  readonly port: number;
  readonly dataDir: string;
  /** Connection string of `database` (default `postgres`) as the superuser `postgres`. */
  url(database?: string): string;
  /** Creates an empty database and returns its connection string. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (`mode` `immediate` is a crash: no checkpoint). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts the stopped server again on the same port. */
  start(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
}

/** Finds `initdb` of the newest Postgres installed by Debian's `postgresql` package, or on PATH. */
export function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], 'bin');
  }
  throw new Error(
    "Postgres server binaries not found under /usr/lib/postgresql/*/bin: install Debian's postgresql package (apt-get install postgresql).",
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Postgres refuses to run as root: as root, the server runs as `nobody`. */
function asServerUser(file: string, args: string[]): [string, string[]] {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return isRoot ? ['runuser', ['-u', 'nobody', '--', file, ...args]] : [file, args];
}

async function exec(file: string, args: string[]): Promise<void> {
  const [command, argv] = asServerUser(file, args);
  try {
    await run(command, argv, { cwd: tmpdir() });
  } catch (error) {
    const failure = error as Error & { stderr?: string; stdout?: string };
    throw new Error(
      `${file} ${args.join(' ')} failed: ${failure.stderr || failure.stdout || failure.message}`,
    );
  }
}

/**
 * Creates and starts a Postgres cluster in a fresh temporary folder on a free local port
 * (`initdb` + `pg_ctl`, trust authentication, durability settings off for speed), as `nobody`
 * when running as root. Resolves once it accepts connections. Call `destroy()` after.
 */
export async function startTestCluster(options: { maxConnections?: number } = {}): Promise<TestCluster> {
  const bin = postgresBin();
  const dataDir = mkdtempSync(join(tmpdir(), 'troupe-pg-'));
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot) chownSync(dataDir, 65534, 65534);
  const data = join(dataDir, 'data');
  await exec(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dataDir}`,
    '-c listen_addresses=127.0.0.1',
    `-c max_connections=${options.maxConnections ?? 200}`,
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c shared_buffers=64MB',
  ].join(' ');
  const log = join(dataDir, 'server.log');
  const start = () =>
    exec(join(bin, 'pg_ctl'), ['start', '-w', '-t', '30', '-D', data, '-l', log, '-o', settings]);
  let running = false;
  const cluster: TestCluster = {
    port,
    dataDir,
    url: (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: cluster.url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      } finally {
        await client.end();
      }
      return cluster.url(name);
    },
    async stop(mode = 'fast') {
      if (!running) return;
      await exec(join(bin, 'pg_ctl'), ['stop', '-w', '-m', mode, '-D', data]);
      running = false;
    },
    async start() {
      if (running) return;
      try {
        await start();
      } catch (error) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
        throw new Error(`${(error as Error).message}\n${tail}`);
      }
      running = true;
    },
    async destroy() {
      try {
        await cluster.stop('immediate');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
  try {
    await cluster.start();
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return cluster;
}
