// A client of the cluster: queues tasks in Postgres, which the workers (worker.mjs) run, and
// prints each result as it arrives. It runs no task itself.
import { homedir } from 'node:os';
import { createNodeTools, loadAgentDirectories } from '@troupe/node';
import { connectCluster } from '@troupe/postgres';

const postgres = process.env.DATABASE_URL;
if (!postgres) {
  console.error('Set DATABASE_URL, e.g. postgres:///troupe?host=/var/run/postgresql (see README.md)');
  process.exit(2);
}
const root = process.env.WORKSPACE ?? process.cwd();
const prompts = process.argv.slice(2);
if (prompts.length === 0) prompts.push('Find where auth is handled', 'Which files check a token?');

// The same agents and tool names as the workers: the client checks each spawn against them.
const cluster = await connectCluster({
  postgres,
  agents: await loadAgentDirectories({ cwd: root, home: homedir() }),
  tools: createNodeTools({ root }),
});
const handles = prompts.map((prompt, index) =>
  cluster.spawn({ agent: 'explore', prompt, sessionKey: `example-${index}` }),
);
let failed = 0;
for (const [index, { id, result }] of handles.entries()) {
  const done = await result; // resolves when a worker ends the task
  if (done.status !== 'completed') failed++;
  console.log(`${id} (${prompts[index]}): ${done.status}\n  ${String(done.output ?? done.error?.message)}`);
}
await cluster.close();
process.exit(failed === 0 ? 0 : 1);
