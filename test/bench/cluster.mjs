// The bench workload on a troupe cluster: a throwaway local Postgres, 2 worker processes, and
// this process as a client that runs no tasks. Prints a JSON line (used by run.ts).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { connectCluster } from '@troupe/postgres';
import { startTestCluster } from '@troupe/postgres/testing';
import { lookupTool, TURNS_PER_TASK } from './workload.mjs';

const tasks = Number(process.argv[2] ?? 2000);
const WORKERS = 2;
const worker = fileURLToPath(new URL('./cluster-worker.mjs', import.meta.url));
const agents = [{ name: 'worker', description: 'Does work.', systemPrompt: 'You work.', tools: ['lookup'] }];

const server = await startTestCluster();
const children = [];
let client;
try {
  const url = await server.createDatabase('bench');
  // Workers start one by one: the first creates the schemas.
  for (let index = 0; index < WORKERS; index++) {
    const child = fork(worker, [url, `bench-${index + 1}`], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(child);
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`bench worker exited (${code}) before it was ready`)));
    });
  }
  client = await connectCluster({
    postgres: url,
    agents,
    tools: [lookupTool],
    limits: { maxConcurrent: 5, maxPerSession: 5, maxTurns: TURNS_PER_TASK + 1 },
    pollMs: 5_000,
  });
  const run = async (count) => {
    const started = performance.now();
    const handles = [];
    // Ten sessions: the per-session limit (5) never binds; the global one (5) does.
    for (let index = 0; index < count; index++)
      handles.push(
        client.spawn({ agent: 'worker', prompt: `task ${index}`, sessionKey: `s${index % 10}` }).result,
      );
    const results = await Promise.all(handles);
    const wallMs = performance.now() - started;
    if (results.some((result) => result.status !== 'completed' || result.turns !== TURNS_PER_TASK))
      throw new Error('bench: a cluster task did not complete as scripted');
    return wallMs;
  };
  await run(Math.min(100, tasks)); // warm-up
  const cpu = process.cpuUsage();
  const wallMs = await run(tasks);
  const used = process.cpuUsage(cpu);
  console.log(
    JSON.stringify({
      kind: 'cluster',
      tasks,
      workers: WORKERS,
      wallMs,
      clientCpuMs: (used.user + used.system) / 1000,
    }),
  );
} finally {
  await client?.close();
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await server.destroy();
}
