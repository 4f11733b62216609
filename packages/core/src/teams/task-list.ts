import type { TeamState } from './team-state.js';
import type { TeamTask, TeamTaskStatus } from './team-types.js';

/** A `TaskCreate` call's input (Claude Code's fields). */
export interface TaskCreateInput {
  subject: string;
  description: string;
  activeForm?: string | undefined;
}

/** A `TaskUpdate` call's input (Claude Code's fields). */
export interface TaskUpdateInput {
  taskId: string;
  status?: TeamTaskStatus | undefined;
  subject?: string | undefined;
  description?: string | undefined;
  activeForm?: string | undefined;
  owner?: string | undefined;
  addBlocks?: string[] | undefined;
  addBlockedBy?: string[] | undefined;
}

/** An update the team accepted: the task after it, and the tasks that now wait for it. */
export interface AcceptedUpdate {
  task: TeamTask;
  blocked: { id: string; blockedBy: string[] }[];
}

/** The task `TaskCreate` adds: the next id, pending, unowned, blocked by nothing. */
export function newTask(state: TeamState, by: string, input: TaskCreateInput): TeamTask {
  const task: TeamTask = {
    id: String(state.tasks.length + 1),
    subject: input.subject,
    description: input.description,
    status: 'pending',
    blockedBy: [],
    createdBy: by,
  };
  if (input.activeForm) task.activeForm = input.activeForm;
  return task;
}

/**
 * Checks a `TaskUpdate` by member `by` and returns the task as it would be, or why it is refused:
 * an unknown or deleted task, a dependency on itself, on a missing task or making a cycle, a claim
 * (an owner set, or `in_progress`) while a task it is blocked by is not completed, or a task
 * another member holds (only its owner or the lead may change that).
 */
export function updateTask(
  state: TeamState,
  by: string,
  input: TaskUpdateInput,
): AcceptedUpdate | { error: string } {
  const current = findTask(state, input.taskId);
  if (!current) return { error: `Task #${input.taskId} does not exist. Call TaskList to see the tasks.` };
  if (current.status === 'deleted') return { error: `Task #${current.id} was deleted.` };
  const lead = state.config.lead;
  const holder = current.owner;
  if (holder && holder !== by && by !== lead && current.status !== 'completed')
    return {
      error: `Task #${current.id} is claimed by ${holder}; only ${holder} or the lead (${lead}) can change it.`,
    };
  const task: TeamTask = { ...current, blockedBy: [...current.blockedBy] };
  if (input.subject !== undefined) task.subject = input.subject;
  if (input.description !== undefined) task.description = input.description;
  if (input.activeForm !== undefined) task.activeForm = input.activeForm;
  if (input.owner !== undefined) {
    if (input.owner === '') delete task.owner;
    else if (!state.members[input.owner])
      return { error: `There is no member named "${input.owner}" in this team (${memberNames(state)}).` };
    else task.owner = input.owner;
  }
  const tasks = new Map(state.tasks.map((candidate) => [candidate.id, candidate]));
  tasks.set(task.id, task);
  for (const id of input.addBlockedBy ?? []) {
    const refused = dependencyRefused(tasks, task.id, id);
    if (refused) return { error: refused };
    if (!task.blockedBy.includes(id)) task.blockedBy.push(id);
  }
  const blocked: AcceptedUpdate['blocked'] = [];
  for (const id of input.addBlocks ?? []) {
    const refused = dependencyRefused(tasks, id, task.id);
    if (refused) return { error: refused };
    const other = tasks.get(id)!;
    if (!other.blockedBy.includes(task.id)) {
      const changed = { ...other, blockedBy: [...other.blockedBy, task.id] };
      tasks.set(id, changed);
      blocked.push({ id, blockedBy: changed.blockedBy });
    }
  }
  if (input.status !== undefined) task.status = input.status;
  // Starting work on an unowned task claims it.
  if (task.status === 'in_progress' && !task.owner) task.owner = by;
  const claimed =
    task.owner !== undefined && (task.owner !== current.owner || task.status !== current.status);
  if (claimed && (task.status === 'in_progress' || task.status === 'pending')) {
    const open = openBlockers(tasks, task);
    if (open.length)
      return {
        error: `Task #${task.id} is blocked by ${open.map((id) => `#${id}`).join(', ')}, not completed yet; it can be claimed once ${open.length === 1 ? 'it is' : 'they are'}.`,
      };
  }
  return { task, blocked };
}

/** Ids of the tasks `task` is blocked by that are not completed. */
export function openBlockers(tasks: ReadonlyMap<string, TeamTask>, task: TeamTask): string[] {
  return task.blockedBy.filter((id) => {
    const blocker = tasks.get(id);
    return blocker !== undefined && blocker.status !== 'completed' && blocker.status !== 'deleted';
  });
}

/** One task, as `TaskGet` shows it. */
export function describeTask(state: TeamState, task: TeamTask): string {
  const tasks = new Map(state.tasks.map((candidate) => [candidate.id, candidate]));
  const open = openBlockers(tasks, task);
  return [
    `#${task.id} ${task.subject}`,
    `status: ${task.status}${task.owner ? `, owner: ${task.owner}` : ', no owner'}`,
    task.blockedBy.length
      ? `blockedBy: ${task.blockedBy.map((id) => `#${id}`).join(', ')}${open.length ? ` (open: ${open.map((id) => `#${id}`).join(', ')})` : ' (all completed)'}`
      : 'blockedBy: none',
    `created by ${task.createdBy}`,
    '',
    task.description,
  ].join('\n');
}

/** The task list, one line a task, as `TaskList` shows it (deleted tasks left out). */
export function describeTaskList(state: TeamState): string {
  const tasks = new Map(state.tasks.map((candidate) => [candidate.id, candidate]));
  const lines = state.tasks
    .filter((task) => task.status !== 'deleted')
    .map((task) => {
      const open = openBlockers(tasks, task);
      const owner = task.owner ? ` owner: ${task.owner}` : '';
      const blocked = open.length ? ` blockedBy: ${open.map((id) => `#${id}`).join(', ')}` : '';
      return `#${task.id} [${task.status}] ${task.subject}${owner}${blocked}`;
    });
  return lines.length ? lines.join('\n') : 'The task list is empty.';
}

export function findTask(state: TeamState, id: string): TeamTask | undefined {
  const task = state.tasks[Number(id.replace(/^#/, '')) - 1];
  return task && task.id === id.replace(/^#/, '') ? task : undefined;
}

function memberNames(state: TeamState): string {
  return Object.keys(state.members).join(', ');
}

/** Why `id` cannot be blocked by `blocker`: itself, missing, deleted, or a cycle. */
function dependencyRefused(
  tasks: ReadonlyMap<string, TeamTask>,
  id: string,
  blocker: string,
): string | undefined {
  if (!tasks.has(id)) return `Task #${id} does not exist; a dependency must name existing tasks.`;
  if (id === blocker) return `Task #${id} cannot depend on itself.`;
  const task = tasks.get(blocker);
  if (!task) return `Task #${blocker} does not exist; a dependency must name existing tasks.`;
  if (task.status === 'deleted') return `Task #${blocker} was deleted; a task cannot depend on it.`;
  if (dependsOn(tasks, blocker, id, new Set()))
    return `Task #${id} cannot depend on #${blocker}: #${blocker} already depends on #${id} (a cycle).`;
  return undefined;
}

function dependsOn(
  tasks: ReadonlyMap<string, TeamTask>,
  from: string,
  target: string,
  seen: Set<string>,
): boolean {
  if (from === target) return true;
  if (seen.has(from)) return false;
  seen.add(from);
  return (tasks.get(from)?.blockedBy ?? []).some((next) => dependsOn(tasks, next, target, seen));
}
