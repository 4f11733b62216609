import type { Message } from '../model/types.js';
import type { TeamState } from './team-state.js';
import type { TeamConfig, TeamMessage } from './team-types.js';

/**
 * How a message reaches a member: a block the model reads, carrying the message's id so that the
 * team can tell from a conversation whether it arrived (`deliveredIds`).
 */
export function formatMessage(message: TeamMessage): string {
  const summary = message.summary ? ` summary="${escapeAttribute(message.summary)}"` : '';
  return `<teammate-message id="${message.id}" from="${escapeAttribute(message.from)}"${summary}>\n${message.text}\n</teammate-message>`;
}

/** The messages with these ids, formatted, in the order given. */
export function formatMessages(state: TeamState, ids: readonly string[]): string {
  return ids
    .map((id) => state.messages[messageIndex(id)])
    .filter((message): message is TeamMessage => message !== undefined)
    .map(formatMessage)
    .join('\n\n');
}

/** What a member is told at its first spell: who it is, who the others are, how to talk to them. */
export function introduction(config: TeamConfig, name: string): string {
  const member = config.members.find((candidate) => candidate.name === name);
  const others = config.members
    .filter((candidate) => candidate.name !== name)
    .map(
      (candidate) =>
        `${candidate.name} (${candidate.agent}${candidate.name === config.lead ? ', lead' : ''})`,
    )
    .join(', ');
  const role = name === config.lead ? 'the lead' : 'a teammate';
  const plan = member?.planModeRequired
    ? '\nYour write and execute tools are refused until the lead approves your plan: send it with ExitPlanMode { plan }.'
    : '';
  return (
    [
      `You are "${name}", ${role} of the agent team "${config.name}". The others: ${others || 'none'}.`,
      'Your plain text answers are not seen by the others: talk to them with SendMessage { to: <name> | "*", message, summary? }. Their messages reach you as <teammate-message> blocks.',
      'The team shares a task list: TaskCreate, TaskList, TaskGet, TaskUpdate (claim a task by setting yourself as its owner; a task can be claimed only when the tasks it is blocked by are completed). When you have nothing left to do, answer briefly and stop: a message wakes you again.',
    ].join('\n') + plan
  );
}

/** The first user message of a member's spell: its introduction (first spell only), its prompt, its messages. */
export function spellPrompt(
  state: TeamState,
  name: string,
  first: boolean,
  messageIds: readonly string[],
): string {
  const parts: string[] = [];
  if (first) {
    parts.push(introduction(state.config, name));
    const prompt = state.config.members.find((member) => member.name === name)?.prompt;
    if (prompt) parts.push(prompt);
  }
  if (messageIds.length) parts.push(formatMessages(state, messageIds));
  return parts.join('\n\n');
}

const ID_MARK = /<teammate-message id="(m\d+)"/g;

/** The ids of the team messages a conversation (a spell's messages) holds, in order. */
export function deliveredIds(messages: readonly Message[]): string[] {
  const ids: string[] = [];
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const text of textsOf(message)) for (const match of text.matchAll(ID_MARK)) ids.push(match[1]!);
  }
  return ids;
}

/** The ids of the team messages in one steering text (a `task.steered` event), in order. */
export function idsInText(text: string): string[] {
  return [...text.matchAll(ID_MARK)].map((match) => match[1]!);
}

function textsOf(message: Message): string[] {
  if (typeof message.content === 'string') return [message.content];
  const texts: string[] = [];
  // Text blocks only: a tool's result (a file an agent read) is not a delivery.
  for (const block of message.content) if (block.type === 'text') texts.push(block.text);
  return texts;
}

function messageIndex(id: string): number {
  return Number(id.slice(1)) - 1;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&"<>]/g, (char) => `&#${char.charCodeAt(0)};`);
}
