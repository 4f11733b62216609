import * as v from 'valibot';
import { TroupeError } from '../errors.js';
import { defineTool, type Tool, type ToolContext } from '../tools/define-tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';
import type { TaskCreateInput, TaskUpdateInput } from './task-list.js';

/** The names of the team tools, Claude Code's. */
export const TEAM_TOOL_NAMES = [
  'SendMessage',
  'TaskCreate',
  'TaskUpdate',
  'TaskList',
  'TaskGet',
  'ExitPlanMode',
] as const;

/** A `SendMessage` call: a text, or a structured answer to a plan approval request. */
export interface SendMessageInput {
  to: string;
  message:
    | string
    | { type: 'plan_approval_response'; request_id: string; approve: boolean; feedback?: string | undefined };
  summary?: string | undefined;
}

/**
 * What the team tools of one member need from its team: one call each, keyed for idempotence. The
 * team itself answers at once; a team hosted by another cluster worker answers asynchronously.
 */
export interface TeamToolTarget {
  sendMessage(from: string, key: string, input: SendMessageInput): string | Promise<string>;
  createTask(by: string, key: string, input: TaskCreateInput): string | Promise<string>;
  updateTask(by: string, key: string, input: TaskUpdateInput): string | Promise<string>;
  listTasks(): string | Promise<string>;
  getTask(id: string): string | Promise<string>;
  requestPlanApproval(member: string, key: string, plan: string): string | Promise<string>;
}

const TASK_STATUS = v.picklist(['pending', 'in_progress', 'completed', 'deleted']);
const taskIds = v.optional(v.array(v.pipe(v.string(), v.minLength(1))));
const nonEmpty = (what: string) => v.pipe(v.string(), v.minLength(1, `${what} must not be empty`));

/**
 * The team tools of member `member` (Claude Code's names and fields): `read` tools, since they change
 * only the team's own state; `find` looks the team up at each call (a restored spell may start
 * before its team is resumed). `ExitPlanMode` only for a member that needs plan approval.
 */
export function teamTools(find: () => TeamToolTarget | undefined, member: string, planMode: boolean): Tool[] {
  const team = (): TeamToolTarget => {
    const found = find();
    if (!found) throw new TroupeError('TASK_NOT_FOUND', 'This team is not running in this runtime.');
    return found;
  };
  const key = (context: ToolContext) => `${context.taskId}:${context.toolUseId}`;
  const tools: Tool[] = [
    defineTool({
      name: 'SendMessage',
      description:
        'Send a message to a teammate (`to`: its name) or to every teammate (`to`: "*"). Your plain text answers are not seen by the others: this is how you talk to them. The lead answers a plan approval request with message { type: "plan_approval_response", request_id, approve, feedback? }.',
      access: 'read',
      input: v.object({
        to: nonEmpty('to'),
        message: v.union([
          nonEmpty('message'),
          v.object({
            type: v.literal('plan_approval_response'),
            request_id: v.string(),
            approve: v.boolean(),
            feedback: v.optional(v.string()),
          }),
        ]),
        summary: v.optional(v.string()),
      }),
      execute: (input, context) => team().sendMessage(member, key(context), input),
    }),
    defineTool({
      name: 'TaskCreate',
      description:
        "Add a task to the team's shared task list (pending, no owner). Set dependencies with TaskUpdate (addBlockedBy, addBlocks).",
      access: 'read',
      input: v.object({
        subject: nonEmpty('subject'),
        description: v.string(),
        activeForm: v.optional(v.string()),
      }),
      execute: (input, context) => team().createTask(member, key(context), input),
    }),
    defineTool({
      name: 'TaskUpdate',
      description:
        'Update a task of the team: status (pending → in_progress → completed, or deleted), subject, description, activeForm, owner (set yourself to claim it; a task is claimed only when the tasks it is blocked by are completed, and by one member at a time), addBlockedBy / addBlocks (dependencies; not on itself, not on a missing task, no cycles).',
      access: 'read',
      input: v.object({
        taskId: nonEmpty('taskId'),
        status: v.optional(TASK_STATUS),
        subject: v.optional(v.string()),
        description: v.optional(v.string()),
        activeForm: v.optional(v.string()),
        owner: v.optional(v.string()),
        addBlocks: taskIds,
        addBlockedBy: taskIds,
      }),
      execute: (input, context) => team().updateTask(member, key(context), input),
    }),
    defineTool({
      name: 'TaskList',
      description:
        "List the team's tasks: id, subject, status, owner and the open tasks each is blocked by. Claim an unowned, unblocked task with TaskUpdate.",
      access: 'read',
      input: v.object({}),
      execute: () => team().listTasks(),
    }),
    defineTool({
      name: 'TaskGet',
      description: 'One task of the team in full: its description, status, owner and dependencies.',
      access: 'read',
      input: v.object({ taskId: nonEmpty('taskId') }),
      execute: ({ taskId }) => team().getTask(taskId),
    }),
  ];
  if (planMode)
    tools.push(
      defineTool({
        name: 'ExitPlanMode',
        description:
          'Send your plan to the lead for approval. Your write and execute tools are refused until the lead approves it; its answer reaches you as a message.',
        access: 'read',
        input: v.object({ plan: nonEmpty('plan') }),
        execute: ({ plan }, context) => team().requestPlanApproval(member, key(context), plan),
      }),
    );
  return tools;
}

/** `registry` with the team tools added (after its own tools, in a stable order: the prompt cache holds). */
export function withTeamTools(registry: ToolRegistry, tools: readonly Tool[]): ToolRegistry {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const specs = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputJsonSchema,
  }));
  const extended: ToolRegistry = {
    get names() {
      return [...registry.names.filter((name) => !byName.has(name)), ...byName.keys()];
    },
    get: (name) => byName.get(name) ?? registry.get(name),
    has: (name) => byName.has(name) || registry.has(name),
    get specs() {
      return [...registry.specs.filter((spec) => !byName.has(spec.name)), ...specs];
    },
  };
  if (registry.ready) extended.ready = () => registry.ready?.();
  if (registry.failure) extended.failure = () => registry.failure?.();
  return extended;
}
