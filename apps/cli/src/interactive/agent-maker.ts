import { join } from 'node:path';
import { isValidAgentName, type ModelAdapter, normaliseAgentName, textOf } from '@troupe/core';
import { createAgentFile } from '@troupe/node';
import * as v from 'valibot';
import { CliError } from '../errors.js';
import type { SessionApp } from './session-app.js';

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

/**
 * `/agents create`: from a one-line description (the model drafts it), or step by step (name,
 * description, tools, model, instructions; empty instructions are drafted by the model). Writes
 * `<project>/.troupe/agents/<name>.md`. Resolves undefined when the user gives up (Ctrl-C).
 */
export async function createAgent(
  app: SessionApp,
  description: string,
): Promise<{ name: string; path: string } | undefined> {
  const { terminal, options } = app;
  const dir = join(options.cwd, '.troupe', 'agents');
  const modelId = options.models.default;
  if (description) {
    terminal.log(terminal.colors.dim('Drafting the agent from your description…'));
    const draft = await draftAgent(options.model, modelId, description);
    const { path, definition } = await createAgentFile({
      dir,
      name: draft.name,
      description: draft.description,
      prompt: draft.prompt,
      ...(draft.tools ? { tools: draft.tools } : {}),
    });
    return { name: definition.name, path };
  }
  const ask = (prompt: string) => terminal.prompter.ask({ prompt });
  terminal.log('New agent (Ctrl-C to stop):');
  const name = (await ask('Name (lowercase-with-hyphens): '))?.trim();
  if (!name) return gaveUp(app);
  if (!isValidAgentName(name))
    throw new CliError(`"${name}" is not a valid agent name; try "${normaliseAgentName(name)}".`);
  const when = (await ask('When should the main agent use it? '))?.trim();
  if (!when) return gaveUp(app);
  const toolsAnswer = await ask(`Tools (comma-separated from ${TOOL_NAMES.join(', ')}; empty = all): `);
  if (toolsAnswer === undefined) return gaveUp(app);
  const tools = toolsAnswer
    .split(',')
    .map((tool) => tool.trim())
    .filter(Boolean);
  const unknown = tools.filter((tool) => !TOOL_NAMES.includes(tool.toLowerCase()));
  if (unknown.length)
    throw new CliError(`Unknown tool${unknown.length === 1 ? '' : 's'}: ${unknown.join(', ')}.`);
  const model = await ask('Model (inherit, small, plan, haiku, sonnet, opus or an id; empty = inherit): ');
  if (model === undefined) return gaveUp(app);
  let prompt = await ask('Instructions, one line (empty = let the model write them): ');
  if (prompt === undefined) return gaveUp(app);
  if (!prompt.trim()) {
    terminal.log(terminal.colors.dim('Drafting the instructions…'));
    prompt = (await draftAgent(options.model, modelId, `${name}: ${when}`)).prompt;
  }
  const { path, definition } = await createAgentFile({
    dir,
    name,
    description: when,
    prompt,
    ...(tools.length ? { tools } : {}),
    ...(model.trim() && model.trim() !== 'inherit' ? { model: model.trim() } : {}),
  });
  return { name: definition.name, path };
}

function gaveUp(app: SessionApp): undefined {
  app.terminal.log(app.terminal.colors.dim('No agent created.'));
  return undefined;
}
