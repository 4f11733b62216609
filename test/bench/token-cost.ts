// `pnpm bench` row for token cost: the eight scenarios of issue #26 driven through the real runtime
// and @troupe/anthropic against the fake Messages API, whose prompt cache follows Anthropic's
// documented rules (model claude-sonnet-4-5: 1,024-token minimum; reads 0.1x, writes 1.25x / 2x).
// Each scenario's input cost (in uncached-input-token units) is compared with no caching at all
// and with an ideal in which every request reads its whole common prefix with an earlier request
// and writes the rest. Prints a Markdown table, then one JSON line.
// Run: node --import tsx test/bench/token-cost.ts
import {
  type AgentDefinition,
  createAgentRegistry,
  createMemoryStore,
  createRuntime,
  defineTool,
  type Runtime,
  type RuntimeOptions,
  type TaskStore,
} from '@troupe/core';
import * as v from 'valibot';
import {
  type ApiUsage,
  type FakeAnthropicModel,
  type FakeReply,
  prefixBoundaries,
  type RecordedRequest,
  startFakeAnthropicModel,
  systemOf,
  textStep,
} from '../fake-anthropic/index.js';

const MODEL = 'claude-sonnet-4-5';
const FORK = 'End of the parent conversation';
const rules = (agent: string) =>
  `You are the ${agent} agent. ${Array.from({ length: 90 }, (_, i) => `Rule ${i}: read before you answer, cite files and lines, keep it short.`).join(' ')}`;
const readFile = defineTool({
  name: 'read_file',
  description: 'Reads a file of the project.',
  access: 'read',
  input: v.object({ path: v.string() }),
  execute: ({ path }) =>
    `// ${path}\n${Array.from({ length: 60 }, (_, i) => `const line${i} = compute(${i}); // ${path}`).join('\n')}`,
});
const explore: AgentDefinition = {
  name: 'explore',
  description: 'Reads the codebase to answer a question.',
  systemPrompt: rules('explore'),
  tools: ['read_file'],
  model: 'inherit',
};
const forker: AgentDefinition = {
  name: 'investigator',
  description: 'Investigates with the conversation so far.',
  systemPrompt: rules('investigator'),
  tools: ['read_file'],
  forkContext: true,
};

const assistantTurns = (request: RecordedRequest) =>
  (request.body.messages as { role: string }[]).filter((message) => message.role === 'assistant').length;
const lastText = (request: RecordedRequest) => JSON.stringify(request.body.messages.at(-1));
const isMain = (request: RecordedRequest) =>
  systemOf(request).includes('main agent') && !JSON.stringify(request.body.messages).includes(FORK);
const reads = (count: number, turn: number): FakeReply => ({
  content: Array.from({ length: count }, (_, i) => ({
    type: 'tool_use' as const,
    name: 'read_file',
    input: { path: `src/module-${turn}-${i}.ts` },
  })),
});
const tasks = (count: number, extra: Record<string, unknown> = {}): FakeReply => ({
  content: Array.from({ length: count }, (_, i) => ({
    type: 'tool_use' as const,
    name: 'task',
    input: {
      description: `part ${i}`,
      prompt: `Investigate part ${i} of the login flow.`,
      subagent_type: 'explore',
      ...extra,
    },
  })),
});
/** A sub-agent that reads `turns` files one turn at a time, then answers. */
const subagent = (request: RecordedRequest, turns = 2) =>
  assistantTurns(request) < turns
    ? reads(1, assistantTurns(request))
    : textStep('Found it in src/auth.ts:42.');

interface Scenario {
  name: string;
  /** The requests the target is about (the child, the grace turn, ...), measured apart. */
  focus?: { label: string; matches(request: RecordedRequest): boolean };
  run(fake: FakeAnthropicModel, clock: { now: number }): Promise<void>;
  handler(request: RecordedRequest): FakeReply | Promise<FakeReply> | { fault: 'hang' };
}

/** A runtime over the fake API with the bench's read tool, `agents` (default: explore) and `store`. */
function benchRuntime(
  fake: FakeAnthropicModel,
  agents: RuntimeOptions['agents'] = [explore],
  store: TaskStore = createMemoryStore(),
): Runtime {
  return createRuntime({ model: fake.model, tools: [readFile], agents, models: { default: MODEL }, store });
}

let release: () => void = () => {};
let restarted = false;

const scenarios: Scenario[] = [
  {
    name: 'spawn, 8 tool turns',
    handler: (request) => subagent(request, 8),
    async run(fake) {
      const runtime = benchRuntime(fake);
      await runtime.spawn({ agent: 'explore', prompt: 'Where is the session token checked?' }).result;
      await runtime.shutdown();
    },
  },
  {
    name: 'session: 3 parallel tasks, then 1',
    handler: (request) => {
      if (!isMain(request)) return subagent(request);
      const turn = assistantTurns(request);
      return turn === 0 ? tasks(3) : turn === 1 ? tasks(1) : textStep('All parts are covered.');
    },
    async run(fake) {
      const runtime = benchRuntime(fake);
      await runtime.createSession().send('Investigate the login flow in parts.');
      await runtime.shutdown();
    },
  },
  {
    name: 'forked child',
    focus: {
      label: 'the child’s requests',
      matches: (request) => JSON.stringify(request.body.messages).includes(FORK),
    },
    handler: (request) => {
      if (!isMain(request)) return subagent(request);
      const turn = assistantTurns(request);
      if (turn < 2) return reads(1, turn);
      if (turn === 2) return tasks(1, { subagent_type: 'investigator' });
      return textStep('The investigator confirmed it.');
    },
    async run(fake) {
      const runtime = benchRuntime(fake, [explore, forker]);
      await runtime.createSession().send('Read the auth code, then have it investigated further.');
      await runtime.shutdown();
    },
  },
  {
    name: 'background task (6 min) + announcement',
    focus: { label: 'the main agent’s requests', matches: isMain },
    handler: async (request) => {
      if (!isMain(request)) {
        if (assistantTurns(request) === 0) await new Promise<void>((resolve) => (release = resolve));
        return subagent(request);
      }
      const last = lastText(request);
      if (last.includes('Background work update'))
        return textStep('The background search is done: src/auth.ts.');
      return assistantTurns(request) === 0 ? tasks(1, { run_in_background: true }) : textStep('Started it.');
    },
    async run(fake, clock) {
      const runtime = benchRuntime(fake);
      const session = runtime.createSession();
      const told = new Promise<void>((resolve) =>
        session.on('message', (message) => {
          if (message.kind === 'reply' && message.text.includes('background search is done')) resolve();
        }),
      );
      await session.send('Search the login flow in the background.');
      clock.now += 6 * 60_000;
      release();
      await told;
      await runtime.shutdown();
    },
  },
  {
    name: 'MAX_TURNS 3 + grace turn',
    focus: { label: 'the grace request', matches: (request) => assistantTurns(request) === 3 },
    handler: (request) => reads(1, assistantTurns(request)),
    async run(fake) {
      const runtime = benchRuntime(fake, [{ ...explore, maxTurns: 3 }]);
      await runtime.spawn({ agent: 'explore', prompt: 'Read everything about sessions.' }).result;
      await runtime.shutdown();
    },
  },
  {
    name: 'a 12-read turn',
    focus: { label: 'the request after the 12 reads', matches: (request) => assistantTurns(request) === 2 },
    handler: (request) => {
      const turn = assistantTurns(request);
      return turn < 4 ? reads([2, 12, 2, 1][turn]!, turn) : textStep('Done reading.');
    },
    async run(fake) {
      const runtime = benchRuntime(fake);
      await runtime.spawn({ agent: 'explore', prompt: 'Read the whole auth module.' }).result;
      await runtime.shutdown();
    },
  },
  {
    name: 'agent added mid-session',
    focus: { label: 'the main agent’s requests', matches: isMain },
    handler: (request) => {
      if (!isMain(request)) return subagent(request);
      const last = lastText(request);
      return last.includes('tool_result') ? textStep('Here is what it found.') : tasks(1);
    },
    async run(fake) {
      const registry = createAgentRegistry({ definitions: [explore] });
      const runtime = benchRuntime(fake, registry);
      const session = runtime.createSession();
      await session.send('Where is the token checked?');
      registry.add({ ...explore, name: 'reviewer', description: 'Reviews a change for bugs.' });
      await session.send('And where is it refreshed?');
      await runtime.shutdown();
    },
  },
  {
    name: 'resumed task',
    handler: (request) => {
      if (assistantTurns(request) === 2 && !restarted) {
        restarted = true;
        return { fault: 'hang' };
      }
      return subagent(request, 4);
    },
    async run(fake) {
      const store = createMemoryStore();
      const first = benchRuntime(fake, [explore], store);
      const { id } = first.spawn({ agent: 'explore', prompt: 'Where is the session token checked?' });
      while (!restarted) await new Promise((resolve) => setTimeout(resolve, 5));
      await first.shutdown({ keepTasks: true });
      const second = benchRuntime(fake, [explore], store);
      await second.restore();
      await second.result(id);
      await second.shutdown();
    },
  },
];

interface Row {
  name: string;
  requests: number;
  inputTokens: number;
  none: number;
  actual: number;
  ideal: number;
}

const cost = (usage: ApiUsage) =>
  usage.input_tokens +
  usage.cache_read_input_tokens * 0.1 +
  usage.cache_creation.ephemeral_5m_input_tokens * 1.25 +
  usage.cache_creation.ephemeral_1h_input_tokens * 2;

function measure(
  name: string,
  requests: readonly RecordedRequest[],
  only: (request: RecordedRequest) => boolean = () => true,
): Row {
  const seen = new Set<string>();
  const row: Row = { name, requests: 0, inputTokens: 0, none: 0, actual: 0, ideal: 0 };
  for (const request of requests) {
    const { boundaries } = prefixBoundaries(request.body);
    let common = 0;
    for (const boundary of boundaries) if (seen.has(boundary.key)) common = boundary.tokens;
    for (const boundary of boundaries) seen.add(boundary.key);
    const usage = request.usage;
    if (!usage || !only(request)) continue;
    const total = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
    row.requests++;
    row.inputTokens += total;
    row.none += total;
    row.actual += cost(usage);
    row.ideal += common * 0.1 + (total - common) * 1.25;
  }
  return row;
}

const rows: Row[] = [];
const focused: Row[] = [];
for (const scenario of scenarios) {
  const clock = { now: 1_000_000 };
  const fake = await startFakeAnthropicModel({
    handler: (request) => scenario.handler(request),
    now: () => clock.now,
    strict: false,
  });
  await scenario.run(fake, clock);
  rows.push(measure(scenario.name, fake.server.requests));
  if (scenario.focus)
    focused.push(
      measure(`${scenario.name}: ${scenario.focus.label}`, fake.server.requests, scenario.focus.matches),
    );
  await fake.close();
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
console.log(
  '\nToken cost: input cost in uncached-input-token units (reads 0.1x, writes 1.25x / 2x for 1 h), fake API, claude-sonnet-4-5 rules.\n',
);
const table = (title: string, list: readonly Row[]) => {
  console.log(`\n| ${title} | requests | input tokens | cost | vs no caching | of ideal |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of list)
    console.log(
      `| ${row.name} | ${row.requests} | ${row.inputTokens.toLocaleString('en-US')} | ${Math.round(row.actual).toLocaleString('en-US')} | ${percent(row.actual / row.none)} | ${percent(row.ideal / row.actual)} |`,
    );
};
table('scenario', rows);
table('requests a target is about', focused);
const round = (row: Row) => ({ ...row, actual: Math.round(row.actual), ideal: Math.round(row.ideal) });
console.log(JSON.stringify({ tokenCost: rows.map(round), focused: focused.map(round) }));
