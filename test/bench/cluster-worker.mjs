// A worker of the bench cluster: `node cluster-worker.mjs URL ID`. Runs the bench workload's
// tasks (zero-latency model, one read tool per turn) until SIGTERM.
import { startWorker } from '@troupe/postgres';
import { lookupTool, TURNS_PER_TASK, zeroLatencyModel } from './workload.mjs';

const [url, workerId] = process.argv.slice(2);
const worker = await startWorker({
  postgres: url,
  workerId,
  model: zeroLatencyModel,
  agents: [{ name: 'worker', description: 'Does work.', systemPrompt: 'You work.', tools: ['lookup'] }],
  tools: [lookupTool],
  limits: { maxConcurrent: 5, maxPerSession: 5, maxTurns: TURNS_PER_TASK + 1 },
  approval: 'auto',
});
process.send?.({ ready: workerId });
process.on('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
