import { join } from 'node:path';
import { isValidAgentName, type ModelAdapter, normaliseAgentName, textOf } from '@troupe/core';
import { createAgentFile } from '@troupe/node';
import * as v from 'valibot';
import { CliError } from '../errors.js';
import type { SessionHost } from './session-host.js';

const TOOL_NAMES = ['read', 'glob', 'grep', 'ls', 'write', 'edit', 'bash'];

const DRAFT_SYSTEM = `You write sub-agent definitions for a coding assistant. Reply with one JSON object and nothing else:
{"name": "lowercase-with-hyphens", "description": "when the main agent should use this agent, in one or two sentences", "tools": ["read", "glob", "grep", "ls"], "prompt": "the agent's system prompt"}
- tools is a subset of ${TOOL_NAMES.join(', ')}; include write, edit or bash only if the agent must change files or run commands.
- prompt says who the agent is, how it should work, and what its final message must contain (the caller sees only that message).`;

const DraftSchema = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  description: v.pipe(v.string(), v.minLength(1)),
  tools: v.optional(v.array(v.string())),
  prompt: v.pipe(v.string(), v.minLength(1)),
});

/** An agent drafted by the model. */
type AgentDraft = v.InferOutput<typeof DraftSchema>;

/**
 * Asks the model to write an agent definition from a one-line description. Throws {@link CliError}
 * when the answer is not the expected JSON.
 */
async function draftAgent(model: ModelAdapter, modelId: string, description: string): Promise<AgentDraft> {
  const response = await model.generate(
    {
      model: modelId,
      system: DRAFT_SYSTEM,
      messages: [{ role: 'user', content: `Write an agent for this: ${description}` }],
      tools: [],
      maxTokens: 2048,
    },
    new AbortController().signal,
  );
  const text = textOf(response.content);
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  let data: unknown;
  try {
    data = JSON.parse(text.slice(start, end + 1));
  } catch {
    data = undefined;
  }
  const parsed = v.safeParse(DraftSchema, data);
  if (!parsed.success) {
    throw new CliError(
      'The model did not answer with an agent definition; try `/agents create` without a description to fill in the fields yourself.',
    );
  }
  const draft = parsed.output;
  const name = isValidAgentName(draft.name) ? draft.name : normaliseAgentName(draft.name);
  const tools = draft.tools
    ?.map((tool) => tool.trim().toLowerCase())
    .filter((tool) => TOOL_NAMES.includes(tool));
  return { ...draft, name, ...(tools?.length ? { tools } : {}) };
}

/** Asks a question until `check` accepts the answer; resolves undefined when the user gives up. */
async function askUntilValid<T>(
  app: SessionHost,
  prompt: string,
  check: (answer: string) => { value: T } | { error: string },
): Promise<T | undefined> {
  for (;;) {
    const answer = await app.terminal.prompter.ask({ prompt });
    if (answer === undefined) return undefined;
    const checked = check(answer.trim());
    if ('value' in checked) return checked.value;
    app.terminal.log(app.terminal.colors.yellow(checked.error));
  }
}

/** Asks whether to write the file just shown: y or n (asked again otherwise). */
async function confirmWrite(app: SessionHost): Promise<boolean> {
  const answer = await askUntilValid(app, 'Write it? [y]es / [n]o: ', (text) =>
    /^(y|yes)$/i.test(text)
      ? { value: true }
      : /^(n|no)$/i.test(text)
        ? { value: false }
        : { error: 'Please answer y (write the file) or n (do not).' },
  );
  if (answer !== true) app.terminal.log(app.terminal.colors.dim('No agent created.'));
  return answer === true;
}

/**
 * `/agents create`: from a one-line description (the model drafts it), or step by step (name,
 * description, tools, model, instructions; empty instructions are drafted by the model; a field
 * with an invalid answer is asked again). The file is shown and written to
 * `<project>/.troupe/agents/<name>.md` only when the user confirms. Resolves undefined when the
 * user gives up (Ctrl-C) or declines.
 */
export async function createAgent(
  app: SessionHost,
  description: string,
): Promise<{ name: string; path: string } | undefined> {
  const { terminal, options } = app;
  const dir = join(options.cwd, '.troupe', 'agents');
  const modelId = options.models.default;
  const confirm = (file: { path: string; text: string }) => {
    terminal.log(
      [
        `${terminal.colors.bold('New agent file')} ${file.path}:`,
        ...file.text
          .trimEnd()
          .split('\n')
          .map((line) => terminal.colors.dim(`  │ ${line}`)),
      ].join('\n'),
    );
    return confirmWrite(app);
  };
  if (description) {
    terminal.log(terminal.colors.dim('Drafting the agent from your description…'));
    const draft = await draftAgent(options.model, modelId, description);
    const created = await createAgentFile({
      dir,
      name: draft.name,
      description: draft.description,
      prompt: draft.prompt,
      ...(draft.tools ? { tools: draft.tools } : {}),
      confirm,
    });
    return created.written ? { name: created.definition.name, path: created.path } : undefined;
  }
  terminal.log('New agent (Ctrl-C to stop):');
  const name = await askUntilValid(app, 'Name (lowercase-with-hyphens): ', (answer) => {
    if (!answer) return { error: 'The agent needs a name, e.g. migration-reviewer.' };
    if (!isValidAgentName(answer))
      return { error: `"${answer}" is not a valid agent name; try "${normaliseAgentName(answer)}".` };
    if (app.registry.get(answer)?.source === 'project')
      return { error: `A project agent named "${answer}" already exists; choose another name.` };
    return { value: answer };
  });
  if (name === undefined) return gaveUp(app);
  const when = await askUntilValid(app, 'When should the main agent use it? ', (answer) =>
    answer ? { value: answer } : { error: 'Say in a sentence when the main agent should use it.' },
  );
  if (when === undefined) return gaveUp(app);
  const tools = await askUntilValid(
    app,
    `Tools (comma-separated from ${TOOL_NAMES.join(', ')}; empty = all): `,
    (answer) => {
      const list = answer
        .split(',')
        .map((tool) => tool.trim())
        .filter(Boolean);
      const unknown = list.filter((tool) => !TOOL_NAMES.includes(tool.toLowerCase()));
      if (unknown.length)
        return {
          error: `Unknown tool${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}. Choose from ${TOOL_NAMES.join(', ')}.`,
        };
      return { value: list.map((tool) => tool.toLowerCase()) };
    },
  );
  if (tools === undefined) return gaveUp(app);
  const model = await askUntilValid(
    app,
    'Model (inherit, small, plan, haiku, sonnet, opus or an id; empty = inherit): ',
    (answer) =>
      /^[\w.:@/-]*$/.test(answer)
        ? { value: answer }
        : { error: `"${answer}" is not a model: use an alias or an id without spaces.` },
  );
  if (model === undefined) return gaveUp(app);
  let prompt = await terminal.prompter.ask({
    prompt: 'Instructions, one line (empty = let the model write them): ',
  });
  if (prompt === undefined) return gaveUp(app);
  if (!prompt.trim()) {
    terminal.log(terminal.colors.dim('Drafting the instructions…'));
    prompt = (await draftAgent(options.model, modelId, `${name}: ${when}`)).prompt;
  }
  const created = await createAgentFile({
    dir,
    name,
    description: when,
    prompt,
    ...(tools.length ? { tools } : {}),
    ...(model && model !== 'inherit' ? { model } : {}),
    confirm,
  });
  return created.written ? { name: created.definition.name, path: created.path } : undefined;
}

function gaveUp(app: SessionHost): undefined {
  app.terminal.log(app.terminal.colors.dim('No agent created.'));
  return undefined;
}
