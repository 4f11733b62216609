import * as v from 'valibot';
import { readAgentHooks } from './agent-hooks.js';
import { text, toolList } from './field-schemas.js';
import {
  AGENT_EFFORTS,
  type AgentDefinition,
  type AgentEffort,
  type AgentIsolation,
  type AgentMemoryScope,
  PERMISSION_MODES,
  type PermissionMode,
} from './types.js';
import { type DefinitionWarning, makeWarning, preview, type SourceLocation } from './warnings.js';

/** The Claude Code fields this module reads, with their aliases (canonical key first). */
export const CLAUDE_AGENT_FIELDS = [
  { field: 'permissionMode', keys: ['permissionMode', 'permission_mode'] },
  { field: 'skills', keys: ['skills'] },
  { field: 'hooks', keys: ['hooks'] },
  { field: 'memory', keys: ['memory'] },
  { field: 'effort', keys: ['effort'] },
  { field: 'initialPrompt', keys: ['initialPrompt', 'initial_prompt'] },
  { field: 'isolation', keys: ['isolation'] },
] as const;

type ClaudeFields = Pick<
  AgentDefinition,
  'permissionMode' | 'skills' | 'hooks' | 'memory' | 'effort' | 'initialPrompt' | 'isolation'
>;

/** What reading needs: the value of a field (by its chosen key) and where that key is. */
export interface ClaudeFieldInput {
  keyOf(field: string): string | undefined;
  value(key: string): unknown;
  at(key: string): SourceLocation;
}

const MEMORY_SCOPES: readonly AgentMemoryScope[] = ['user', 'project', 'local'];
const ISOLATIONS: readonly AgentIsolation[] = ['worktree'];

/**
 * Reads `permissionMode`, `skills`, `hooks`, `memory`, `effort`, `initialPrompt` and `isolation`.
 * Never throws: a value that fits none of the documented ones is dropped with a `field-ignored`
 * warning naming file, line and what was expected (the agent then behaves as without the field,
 * which is never more permissive).
 */
export function readClaudeFields(input: ClaudeFieldInput, warnings: DefinitionWarning[]): ClaudeFields {
  const fields: ClaudeFields = {};
  const ignore = (key: string, expected: string) =>
    warnings.push(
      makeWarning(
        'field-ignored',
        `'${key}' must be ${expected}; ignored ${preview(input.value(key))}.`,
        input.at(key),
      ),
    );
  const choice = <TValue extends string>(field: string, allowed: readonly TValue[]): TValue | undefined => {
    const key = input.keyOf(field);
    if (key === undefined) return undefined;
    const raw = input.value(key);
    const found =
      typeof raw === 'string'
        ? allowed.find((value) => value.toLowerCase() === raw.trim().toLowerCase())
        : undefined;
    if (found === undefined) ignore(key, `one of ${allowed.join(', ')}`);
    return found;
  };

  const mode = choice<PermissionMode>('permissionMode', PERMISSION_MODES);
  if (mode !== undefined) fields.permissionMode = mode;
  const effort = choice<AgentEffort>('effort', AGENT_EFFORTS);
  if (effort !== undefined) fields.effort = effort;
  const memory = choice('memory', MEMORY_SCOPES);
  if (memory !== undefined) fields.memory = memory;
  const isolation = choice('isolation', ISOLATIONS);
  if (isolation !== undefined) fields.isolation = isolation;

  const skillsKey = input.keyOf('skills');
  if (skillsKey !== undefined) {
    const skills = v.safeParse(toolList, input.value(skillsKey));
    if (skills.success) fields.skills = skills.output;
    else ignore(skillsKey, 'a list of skill names ([review, testing]) or a comma-separated string');
  }
  const promptKey = input.keyOf('initialPrompt');
  if (promptKey !== undefined) {
    const prompt = v.safeParse(text, input.value(promptKey));
    if (prompt.success) fields.initialPrompt = prompt.output;
    else ignore(promptKey, 'a non-empty text');
  }
  const hooksKey = input.keyOf('hooks');
  if (hooksKey !== undefined) {
    const hooks = readAgentHooks(input.value(hooksKey), input.at(hooksKey), warnings);
    if (hooks !== undefined) fields.hooks = hooks;
  }
  return fields;
}
