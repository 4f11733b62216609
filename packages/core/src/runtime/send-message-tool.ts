import * as v from 'valibot';
import { TroupeError } from '../errors.js';
import type { TaskResult } from '../persistence/types.js';
import { defineTool, type Tool } from '../tools/define-tool.js';
import { refusedAgent } from './agent-task-fields.js';
import type { FollowUpOptions } from './follow-up.js';
import { foregroundResult } from './foreground-task.js';
import type { TaskHandle } from './task-handle.js';
import type { TaskInfo } from './task-info.js';
import type { TaskRun } from './task-run.js';

/** What the `send_message` tool needs from the runtime. */
export interface SendMessageRuntime {
  followUp(target: string, message: string, options?: FollowUpOptions): Promise<TaskHandle>;
  get(id: string): TaskInfo | undefined;
  steer(id: string, text: string): void;
  cancel(id: string, reason?: string): boolean;
  runOf(taskId: string): TaskRun | undefined;
  readonly agents: { get(name: string): { name: string } | undefined };
}

/**
 * Claude Code's `SendMessage` as troupe's `send_message { to, message, run_in_background? }`: to a
 * running task of the session it is a steering message; to a finished one (by task id, or by agent
 * name when one finished task of that agent is in the session) it continues that sub-agent's
 * conversation as a linked follow-up task, whose answer is returned like `task`'s.
 */
export function createSendMessageTool(
  runtime: SendMessageRuntime,
  answer: (result: TaskResult) => string,
): Tool {
  return defineTool({
    name: 'send_message',
    description:
      "Sends a message to a sub-agent you started. To a running task it is a correction it sees at its next step. To a finished task it continues that sub-agent's conversation (it remembers what it did) and returns its new answer. `to` is the task_id, or the agent name when only one task of that agent finished in this session.",
    access: 'read',
    input: v.object({
      to: v.pipe(v.string(), v.minLength(1), v.description('The task_id (or the agent name) to send to.')),
      message: v.pipe(v.string(), v.minLength(1), v.description('What the sub-agent should do or know.')),
      run_in_background: v.optional(
        v.pipe(v.boolean(), v.description('Return at once; the answer is delivered when it is ready.')),
      ),
    }),
    async execute({ to, message, run_in_background }, context) {
      const run = runtime.runOf(context.taskId);
      const sessionKey = run?.spec.sessionKey ?? context.sessionKey ?? 'default';
      const live = runtime.get(to);
      if (live && live.sessionKey === sessionKey && !live.result) {
        runtime.steer(to, message);
        return `Message sent to task ${to}; it will see it at its next step.`;
      }
      let handle: TaskHandle;
      try {
        handle = await runtime.followUp(to, message, {
          sessionKey,
          ...(run_in_background ? { background: true, announce: true } : {}),
          ...(run && run.spec.depth >= 1 ? { parentTaskId: run.spec.taskId } : {}),
          refuse: (agent) => refusedAgent(run?.spec, agent, (name) => runtime.agents.get(name)?.name),
        });
      } catch (error) {
        if (error instanceof TroupeError) return `Error: ${error.message}`;
        throw error;
      }
      if (run_in_background)
        return `Continuing in the background as task ${handle.id}. You will be told when it finishes.`;
      return answer(await foregroundResult(runtime, handle, context.signal));
    },
  });
}
