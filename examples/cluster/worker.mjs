// One worker of the cluster: it runs tasks queued in Postgres (by spawn.mjs or any client) until
// it is stopped (Ctrl-C, SIGTERM). Start as many as you like, on any machine that reaches the
// database; a worker that dies has its tasks taken over by the others.
import { homedir } from 'node:os';
import { createAnthropicModel } from '@troupe/anthropic';
import { createNodeTools, loadAgentDirectories } from '@troupe/node';
import { startWorker } from '@troupe/postgres';

const postgres = process.env.DATABASE_URL;
if (!postgres) {
  console.error('Set DATABASE_URL, e.g. postgres:///troupe?host=/var/run/postgresql (see README.md)');
  process.exit(2);
}
const root = process.env.WORKSPACE ?? process.cwd(); // the folder the agents' tools may read

const worker = await startWorker({
  postgres,
  model: createAnthropicModel(), // ANTHROPIC_API_KEY
  agents: await loadAgentDirectories({ cwd: root, home: homedir() }),
  tools: createNodeTools({ root }),
  ...(process.env.WORKER_ID ? { workerId: process.env.WORKER_ID } : {}),
  limits: { maxConcurrent: 4, maxPerSession: 2 },
});
worker.runtime.on('task.completed', (event) =>
  console.log(`[${worker.id}] ${event.agent}: ${event.description} ... completed (${event.toolCalls} tools)`),
);
console.log(`worker ${worker.id} ready`);

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, async () => {
    await worker.stop(); // unfinished tasks stay in Postgres for the other workers
    process.exit(0);
  });
}
