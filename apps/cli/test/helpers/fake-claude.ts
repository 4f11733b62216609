import {
  FAKE_API_KEY,
  type FakeAnthropicServer,
  type FakeHandler,
  isMainAgent,
  lastUserText,
  startFakeAnthropic,
  systemOf,
  textStep,
  toolNamesOf,
  toolResultsOf,
  toolStep,
} from '../../../../test/fake-anthropic/index.js';

export { FAKE_API_KEY };

/** A promise a scripted reply waits on, opened by the test when it has seen what it wanted. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
}

/** A closed gate (or an open one with `open: true`). */
export function gate(open = false): Gate {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  if (open) release();
  return { promise, open: release };
}

/** Gates of {@link sessionScenario}: the explore agent's final answer waits on `explore`. */
export interface ScenarioGates {
  explore: Gate;
}

function firstLine(text: string): string {
  return text.split('\n').find((line) => line.trim()) ?? '';
}

/**
 * A fake Claude for CLI tests. The main agent (it has the `task` tool) delegates:
 * "auth" → explore greps for `login` and answers (after `gates.explore`); "notes" →
 * general-purpose writes notes.txt (needs approval); "background" → explore in the background.
 * Once its task answers, the main agent replies `Summary: <first line of the answer>`. Asked to draft
 * an agent (`/agents create TEXT`), it answers with a `migration-reviewer` definition.
 */
export function sessionScenario(gates: ScenarioGates): FakeHandler {
  return (request) => {
    if (systemOf(request).startsWith('You write sub-agent definitions')) {
      return textStep(
        JSON.stringify({
          name: 'migration-reviewer',
          description: 'Reviews SQL migrations for safety.',
          tools: ['read', 'grep', 'WebFetch'],
          prompt: 'You review SQL migrations. Report risky statements.',
        }),
      );
    }
    const tools = toolNamesOf(request);
    const results = toolResultsOf(request);
    const text = lastUserText(request);
    if (isMainAgent(request)) {
      if (text.startsWith('[Background work update]'))
        return textStep('Background news: the login search is done.');
      if (results.length) return textStep(`Summary: ${firstLine(results[0]!.content)}`);
      if (/auth/i.test(text)) {
        return toolStep('task', {
          description: 'Find auth code',
          prompt: 'Find where login is implemented.',
          subagent_type: 'explore',
        });
      }
      if (/notes/i.test(text)) {
        return toolStep('task', {
          description: 'Write notes file',
          prompt: 'Write notes.txt saying hello.',
          subagent_type: 'general-purpose',
        });
      }
      if (/background/i.test(text)) {
        return toolStep('task', {
          description: 'Search in the background',
          prompt: 'Find where login is implemented.',
          subagent_type: 'explore',
          run_in_background: true,
        });
      }
      return textStep('Hello from the fake Claude.');
    }
    if (results.length === 0) {
      if (tools.includes('write'))
        return toolStep('write', { file_path: 'notes.txt', content: 'hello from troupe\n' });
      return toolStep('grep', { pattern: 'login', output_mode: 'files_with_matches' });
    }
    const result = results[0]!;
    if (tools.includes('write') || /notes/.test(lastUserText(request))) {
      return textStep(
        result.isError ? `Could not write notes.txt: ${firstLine(result.content)}` : 'Wrote notes.txt.',
      );
    }
    return {
      ...textStep(`login is in src/auth.js (${firstLine(result.content)})`),
      gate: gates.explore.promise,
    };
  };
}

/** Starts a strict fake server with a handler. */
export function startFakeClaude(handler: FakeHandler): Promise<FakeAnthropicServer> {
  return startFakeAnthropic({ apiKey: FAKE_API_KEY, strict: true, handler });
}

/** The environment variables that point troupe at a fake server. */
export function fakeEnv(server: FakeAnthropicServer): Record<string, string> {
  return { ANTHROPIC_API_KEY: FAKE_API_KEY, ANTHROPIC_BASE_URL: server.url };
}

/**
 * A model that runs the prompt (through `command`, default as it is) as one `bash` call, then
 * answers `Result: <the tool result>`: for tests of what a command may do and see.
 */
export function startCommandRunningClaude(
  command: (prompt: string) => string = (prompt) => prompt,
): Promise<FakeAnthropicServer> {
  return startFakeClaude((request) => {
    const results = toolResultsOf(request);
    if (results.length) return textStep(`Result: ${results[0]!.content}`);
    return toolStep('bash', { command: command(lastUserText(request)) });
  });
}
