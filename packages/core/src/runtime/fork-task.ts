import type { Clock } from '../clock.js';
import type { AgentDefinition } from '../definitions/types.js';
import { TroupeError, ValidationError } from '../errors.js';
import type { SubagentEvent } from '../machines/subagent-events.js';
import { subagentMachine } from '../machines/subagent-machine.js';
import type { ContentBlock } from '../model/types.js';
import { machineInputFromSpec } from '../persistence/machine-input.js';
import { describeThrown } from '../persistence/plain-json.js';
import { feedJournal, journalEntry, queuedRecord } from '../persistence/task-documents.js';
import type { ForkLink, JournalEntry, TaskSpec, TaskStore } from '../persistence/types.js';
import type { Tool } from '../tools/define-tool.js';
import type { AgentCatalog } from './agent-catalog.js';
import { type PlanTooling, systemPromptFor } from './prepare-task.js';
import { effectChildren } from './restore-plan.js';

/** What of the agent definition a fork may change: its system prompt, its tools, its model. */
export type ForkAgentEdit = Partial<
  Pick<AgentDefinition, 'systemPrompt' | 'tools' | 'disallowedTools' | 'model'>
>;

/** Options of `runtime.fork`. */
export interface ForkOptions {
  /**
   * The step to fork from: the fork starts from the state the original reached after its first
   * `atStep` journal entries (step N is journal entry `seq` N - 1; the inspector's and `troupe replay`'s
   * step numbers). At least 1, and a step at which the original had not ended.
   */
  atStep: number;
  /**
   * The agent definition edited: a new system prompt, tool selection or model (a full definition,
   * e.g. from an agent file, is one too). Fields not given stay as the original task had them.
   */
  agent?: ForkAgentEdit;
  /**
   * Replaces the text of the last assistant message at that step (the model's latest answer the fork
   * goes on from); its tool calls and thinking stay. Throws when no assistant message precedes the step.
   */
  editMessage?: { text: string };
}

/** What planning a fork needs from the runtime. */
export interface ForkPlanner {
  readonly agents: AgentCatalog;
  readonly clock: Clock;
  readonly store: TaskStore;
  readonly limits: { maxDepth: number };
  baseToolList(): readonly Tool[];
  mainTools(): Tool[];
  /** A workspace of its own for a fork of a task that had one (`planWorkspace`, see `TaskWorkspaces`). */
  readonly tooling: Pick<PlanTooling, 'planWorkspace'>;
}

/** A fork ready to run: its spec, its journal (the original's entries, copied) and the state they lead to. */
export interface ForkPlan {
  spec: TaskSpec & { forkedFrom: ForkLink };
  entries: JournalEntry[];
  /** The persisted snapshot the entries lead to, with the pure machine (no effect ran). */
  snapshot: unknown;
}

/**
 * Plans a fork of the stored task `taskId` at `options.atStep`: copies its journal up to the step
 * (times moved to now, the edited message replaced), builds the new task's spec (new id, the agent
 * edits applied) and rehearses the copied journal through the pure machine, as a restore does.
 * Nothing is written. Throws `TASK_NOT_FOUND`, or a `ValidationError` naming the step's range.
 */
export async function planFork(
  planner: ForkPlanner,
  taskId: string,
  options: ForkOptions,
  newId: string,
): Promise<ForkPlan> {
  const { store, clock } = planner;
  await store.flush();
  const task = await store.getTask(taskId);
  if (!task) throw new TroupeError('TASK_NOT_FOUND', `fork: no task "${taskId}" in the store.`);
  const { entries: original } = await store.loadJournal(taskId);
  const step = options?.atStep;
  if (!Number.isInteger(step) || step < 1 || step > original.length)
    throw new ValidationError(
      `fork: atStep must be a whole number from 1 to ${original.length} (the journal entries of task ${taskId}); got ${String(step)}.`,
      ['atStep'],
    );
  const copied = original.slice(0, step).map((entry) => structuredClone(entry.event));
  const now = clock.now();
  const shiftMs = now - copied.at(-1)!.at;
  const link: ForkLink = { taskId, step, shiftMs };
  const edit = options.editMessage;
  if (edit !== undefined) {
    if (typeof edit?.text !== 'string' || edit.text.trim() === '')
      throw new ValidationError('fork: editMessage.text must be a non-empty string.', ['editMessage.text']);
    const index = copied.findLastIndex((event) => event.type === 'model.responded');
    if (index < 0)
      throw new ValidationError(
        `fork: task ${taskId} has no assistant message at or before step ${step} to edit.`,
        ['editMessage'],
      );
    const event = copied[index] as Extract<SubagentEvent, { type: 'model.responded' }>;
    event.response.content = withText(event.response.content, edit.text);
    link.editedEntry = index;
  }
  const spec = forkSpec(planner, task.spec, options.agent, newId, now, link);
  const entries = copied.map((event, seq) => {
    const entry = journalEntry(seq, shifted(event, shiftMs));
    return seq === 0 ? { ...entry, forkedFrom: link } : entry;
  });
  return { spec, entries, snapshot: rehearseFork(spec, entries, taskId, step) };
}

/** Writes a planned fork to the store: its `task.queued` record (with the spec), then its journal. */
export function recordFork(store: TaskStore, plan: ForkPlan): void {
  store.appendStatus(queuedRecord(plan.spec));
  for (const entry of plan.entries) store.appendJournal(plan.spec.taskId, entry);
}

/** The fork's spec: the original's, with a new id and time, the agent edits, no parent and no announcement. */
function forkSpec(
  planner: ForkPlanner,
  original: TaskSpec,
  edit: ForkAgentEdit | undefined,
  taskId: string,
  now: number,
  forkedFrom: ForkLink,
): ForkPlan['spec'] {
  const { parentTaskId: _parent, deadlineCap: _cap, workspace: originalWorkspace, ...rest } = original;
  const spec: ForkPlan['spec'] = { ...rest, taskId, createdAt: now, announce: false, forkedFrom };
  // A fork never shares the original's workspace: it gets one of its own, fresh from the host.
  if (originalWorkspace) {
    const workspace = planner.tooling.planWorkspace(
      {
        name: original.agent,
        description: original.description,
        systemPrompt: original.system,
        isolation: 'worktree',
      },
      taskId,
    );
    if (workspace) spec.workspace = workspace;
  }
  if (!edit) return spec;
  if (edit.systemPrompt !== undefined) {
    if (typeof edit.systemPrompt !== 'string' || edit.systemPrompt.trim() === '')
      throw new ValidationError('fork: agent.systemPrompt must be a non-empty string.', [
        'agent.systemPrompt',
      ]);
    spec.system = systemPromptFor(edit.systemPrompt, original.outputSchema);
  }
  const known = planner.agents.get(original.agent);
  const definition: AgentDefinition = {
    ...(known ?? { name: original.agent, description: original.description, systemPrompt: original.system }),
    ...edit,
    name: original.agent,
  };
  if (edit.model !== undefined) spec.model = planner.agents.resolveModel(definition, edit.model, undefined);
  if (edit.tools !== undefined || edit.disallowedTools !== undefined) {
    const canNest = original.depth < planner.limits.maxDepth;
    spec.tools = planner.agents.toolNamesFor(
      definition,
      planner.baseToolList(),
      planner.mainTools(),
      canNest,
    );
  }
  return spec;
}

/** `content` with its text replaced by `text` (at the first text block's place, or first); the rest kept. */
function withText(content: ContentBlock[], text: string): ContentBlock[] {
  const at = content.findIndex((block) => block.type === 'text');
  const rest = content.filter((block) => block.type !== 'text');
  const place = at < 0 ? 0 : content.slice(0, at).filter((block) => block.type !== 'text').length;
  return [...rest.slice(0, place), { type: 'text', text }, ...rest.slice(place)];
}

/** `event` with its times moved by `shiftMs` (`at`, and the deadline `task.started` sets). */
function shifted(event: SubagentEvent, shiftMs: number): SubagentEvent {
  const moved = { ...event, at: event.at + shiftMs };
  if (moved.type === 'task.started') moved.deadline += shiftMs;
  return moved;
}

/** Feeds the fork's journal through the pure machine; the persisted snapshot reached, or a ValidationError. */
function rehearseFork(spec: TaskSpec, entries: JournalEntry[], taskId: string, step: number): unknown {
  const feed = feedJournal(machineInputFromSpec(spec));
  try {
    const fed = feed.feedWhileActive(entries);
    const snapshot = feed.snapshot;
    if (feed.failure !== undefined || snapshot.status === 'error')
      throw new ValidationError(
        `fork: the journal of task ${taskId} cannot be replayed up to step ${step}: ${describeThrown(feed.failure ?? snapshot.error)}.`,
        ['atStep'],
      );
    if (fed < entries.length || snapshot.status !== 'active')
      throw new ValidationError(
        `fork: task ${taskId} had ended by step ${step} (${String(snapshot.value)}); fork from an earlier step.`,
        ['atStep'],
      );
    const persisted = subagentMachine.getPersistedSnapshot(snapshot);
    effectChildren(subagentMachine, persisted);
    return persisted;
  } finally {
    feed.stop();
  }
}
