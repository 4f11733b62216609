// Where the test servers live and how to start them, without network: from node_modules.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../../test/helpers/free-port.js';
import type { McpServerEntry } from '../src/index.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** server-everything's and server-filesystem's entry points, and troupe's faulty fixture. */
export const EVERYTHING = here('../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = here('../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const FAULTY = here('./fixtures/faulty-server.mjs');
/** troupe's hostile fixture: huge, deep and malformed results, processes that escape. */
export const HOSTILE = here('./fixtures/hostile-server.mjs');

/** A stdio server entry running a Node script. */
export function nodeServer(
  name: string,
  script: string,
  args: string[] = [],
  extra: Partial<Extract<McpServerEntry['config'], { type: 'stdio' }>> = {},
): McpServerEntry {
  return {
    name,
    source: 'test',
    config: { type: 'stdio', command: process.execPath, args: [script, ...args], env: {}, ...extra },
  };
}

/** Starts server-everything over Streamable HTTP; resolves with its URL and a stop function. */
export async function startEverythingHttp(): Promise<{
  url: string;
  pid: number;
  stop: () => Promise<void>;
}> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${output}`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
