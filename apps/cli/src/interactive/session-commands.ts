import { DEFAULT_PRICES, type ModelConfig, type TaskInfo } from '@troupe/core';
import { UsageError } from '../errors.js';
import { sessionCostLines } from '../render/session-cost.js';
import { usageLedgerLines } from '../render/usage-ledger.js';
import { matchTaskId } from '../task-ids.js';
import type { SessionHost } from './session-host.js';

const ALIASES = ['default', 'small', 'plan', 'haiku', 'sonnet', 'opus'] as const;

function taskName(info: TaskInfo): string {
  return `[${info.agent}] ${info.description}`;
}

/**
 * `/cancel ID` cancels one task of the session (ID may be a prefix); `/cancel` alone stops
 * everything the session is doing: the current turn, its sub-agents and the background tasks.
 */
export function cancelCommand(app: SessionHost, given: string | undefined): void {
  const { runtime, session, terminal } = app;
  const { colors } = terminal;
  if (given) {
    const tasks = runtime.list({ sessionKey: session.sessionKey });
    const id = matchTaskId(
      tasks.map((info) => info.id),
      given,
    );
    const info = runtime.get(id)!;
    if (runtime.cancel(id, 'Cancelled by the user.')) terminal.log(`Cancelling ${taskName(info)}.`);
    else terminal.log(`That task already ended (${info.status}).`);
    return;
  }
  const interrupted = session.interrupt();
  const active = runtime.list({ sessionKey: session.sessionKey, active: true });
  const cancelled = runtime.cancelSession(session.sessionKey, 'Cancelled by the user.');
  const parts: string[] = [];
  if (interrupted) parts.push('the current turn');
  if (cancelled > 0)
    parts.push(`${cancelled} task${cancelled === 1 ? '' : 's'} (${active.map(taskName).join(', ')})`);
  terminal.log(
    parts.length > 0
      ? colors.yellow(`Cancelled ${parts.join(' and ')}.`)
      : colors.dim('Nothing to cancel: no turn or task of this session is running.'),
  );
}

/** `/clear`: the main agent forgets the conversation; tasks, approvals and the screen stay. */
export function clearCommand(app: SessionHost): void {
  const { colors } = app.terminal;
  if (!app.session.clear())
    throw new UsageError('The main agent is still answering: press Ctrl-C (or /cancel) first, then /clear.');
  app.terminal.log(
    colors.dim(
      'Conversation cleared: the main agent starts afresh from your next message (tasks and "always allow" answers are kept).',
    ),
  );
}

/**
 * `/model` shows the models in use; `/model ID` (or an alias: sonnet, opus, haiku) sets the main
 * model, which is also what agents with `model: inherit` (or none) run on, from the next request.
 */
export function modelCommand(app: SessionHost, given: string | undefined): void {
  const { colors } = app.terminal;
  const models = app.runtime.agents.models;
  if (!given) {
    app.terminal.log(
      [
        `main model: ${colors.bold(models.default)}`,
        `small model: ${models.small ?? app.options.models.small ?? '(haiku)'}  (agents with model: small)`,
        `plan model: ${models.plan ?? models.default}  (agents with model: plan)`,
        colors.dim('Change the main model with /model ID or an alias (sonnet, opus, haiku).'),
      ].join('\n'),
    );
    return;
  }
  if (!/^[\w.:@/-]+$/.test(given))
    throw new UsageError(
      `"${given}" is not a model id: use an id such as claude-sonnet-5-5, or sonnet, opus, haiku.`,
    );
  const alias = ALIASES.find((name) => name === given.toLowerCase());
  const id = (alias && (models as ModelConfig)[alias]) || (alias && app.options.models[alias]) || given;
  const previous = models.default;
  models.default = id;
  app.terminal.log(
    colors.green(
      id === previous
        ? `The main model is already ${id}.`
        : `Main model: ${id} (was ${previous}), from the next request.`,
    ),
  );
}

/**
 * `/cost`: tokens of the session, with prompt-cache reads and writes, then the ledger's split by
 * agent and by model with estimated costs. Everything comes from the ledger
 * (`runtime.usage({ sessionKey })`): the main agent's ended runs are stored like tasks, each part
 * of a run or task priced under the model that answered it, at the configured prices.
 */
export async function costCommand(app: SessionHost): Promise<void> {
  const sessionKey = app.session.sessionKey;
  const running = app.runtime.list({ sessionKey, active: true });
  const report = await app.runtime.usage({ sessionKey });
  const colors = app.terminal.colors;
  app.terminal.log(
    [
      ...sessionCostLines({ report, running }, colors),
      ...usageLedgerLines(report, colors, { listPrices: app.runtime.prices === DEFAULT_PRICES }),
    ].join('\n'),
  );
}
