import type { SnapshotFrom } from 'xstate';
import { type SubagentMachine, subagentMachine } from '../machines/subagent-machine.js';
import type { TaskResult, TaskSnapshotDocument } from '../persistence/types.js';
import { firstDifference, type JsonPath, valueAt } from './first-difference.js';

type Snapshot = SnapshotFrom<SubagentMachine>;

/** A journal entry named in a replay check: its position in the journal, its `seq`, its event's type. */
export interface ReplayEntry {
  /** 0-based position in the journal as loaded. */
  index: number;
  seq: number;
  type: string;
}

/** Where a replay first went another way than the recorded run. */
export interface ReplayDifference {
  /** What it was compared with: the stored snapshot document, or the stored result. */
  against: 'snapshot' | 'result';
  /** The first differing value: `context.messages[3].content[0].text`, `value`, `savedAt`, `result.output`. */
  path: string;
  recorded: unknown;
  replayed: unknown;
  /**
   * The first differing event: the journal entry after which the replay and the recorded run
   * diverge. Undefined when the value comes from the task as spawned (its spec).
   */
  entry?: ReplayEntry;
  /** The difference in words, when it is not a value (`the replay did not reach a final state`). */
  note?: string;
}

/** What the check is given: the replay's snapshots and what the store recorded. */
export interface ReplayTrace {
  /** The replay's snapshot before any journal entry (from the spec alone). */
  initial: Snapshot;
  /** Each replayed entry and the snapshot it led to, in journal order. */
  steps: readonly { seq: number; event: { type: string }; snapshot: Snapshot }[];
  /** How many entries the spec's messages account for (they come from the spec, not an event). */
  specMessages: number;
}

/** The outcome of {@link checkReplay}. */
export interface ReplayCheck {
  matches: boolean;
  compared: string[];
  first?: ReplayDifference;
}

const ORDER = ['status', 'value', 'context', 'output', 'error'];

/**
 * A persisted snapshot as plain JSON, keys in the order differences are looked for: the state
 * (status, value) before the context, then the output and whatever else XState persists.
 */
function comparable(persisted: unknown): Record<string, unknown> {
  const source = JSON.parse(JSON.stringify(persisted ?? null)) as Record<string, unknown> | null;
  if (source === null || typeof source !== 'object') return { snapshot: source };
  const out: Record<string, unknown> = {};
  for (const key of [...ORDER, ...Object.keys(source)]) if (key in source) out[key] = source[key];
  return out;
}

const entryOf = (trace: ReplayTrace, index: number): ReplayEntry => {
  const step = trace.steps[index]!;
  return { index, seq: step.seq, type: step.event.type };
};

/** The state after `count` entries: the initial snapshot for 0. */
const after = (trace: ReplayTrace, count: number) =>
  count === 0 ? trace.initial : trace.steps[count - 1]!.snapshot;

/**
 * The first differing event, for a difference at `path` in the state after `count` entries. The
 * earliest of two witnesses: the first entry the replay's machine ignored (no transition, the same
 * context: a live run only journals events its machine takes, so the journal went another way at
 * or before it), and the entry that last changed the value at `path`. A value the replay never
 * changed is blamed on the spec when the spec set it (`context.task`, the starting messages), else
 * on the last entry (the replay ended elsewhere).
 */
function blame(
  trace: ReplayTrace,
  path: JsonPath,
  count: number,
): (ReplayEntry & { ended?: true }) | undefined {
  let ignored: number | undefined;
  for (let index = 0; index < count && ignored === undefined; index++) {
    const before = after(trace, index);
    const next = after(trace, index + 1);
    if (next.context === before.context && JSON.stringify(next.value) === JSON.stringify(before.value))
      ignored = index;
  }
  const json = (snapshot: Snapshot) => JSON.stringify(valueAt(snapshot, path));
  let changed: number | undefined;
  for (let index = count - 1; index >= 0 && changed === undefined; index--)
    if (json(after(trace, index + 1)) !== json(after(trace, index))) changed = index;
  if (changed !== undefined) changed = ownToolResult(trace, path, changed, count) ?? changed;
  const earliest = Math.min(ignored ?? Number.POSITIVE_INFINITY, changed ?? Number.POSITIVE_INFINITY);
  if (Number.isFinite(earliest)) return entryOf(trace, earliest);
  const fromSpec =
    path[0] === 'context' &&
    (path[1] === 'task' ||
      (path[1] === 'messages' && typeof path[2] === 'number' && path[2] < trace.specMessages));
  return fromSpec || count === 0 ? undefined : { ...entryOf(trace, count - 1), ended: true };
}

/**
 * The parallel tool results of a turn reach the conversation together, at the turn's last
 * `tool.finished`: a difference inside one of them (`context.messages[4].content[1]…`) is that
 * call's own `tool.finished` entry — the last one for its `tool_use_id` at or before `changed`.
 * Undefined when the path is not inside a tool result, or no such entry exists.
 */
function ownToolResult(
  trace: ReplayTrace,
  path: JsonPath,
  changed: number,
  count: number,
): number | undefined {
  if (path[0] !== 'context' || path[1] !== 'messages' || path[3] !== 'content' || typeof path[4] !== 'number')
    return undefined;
  const block = valueAt(after(trace, count), path.slice(0, 5)) as
    | { type?: unknown; tool_use_id?: unknown }
    | undefined;
  if (block?.type !== 'tool_result' || typeof block.tool_use_id !== 'string') return undefined;
  for (let index = changed; index >= 0; index--) {
    const event = trace.steps[index]!.event as { type: string; toolUseId?: unknown };
    if (event.type === 'tool.finished' && event.toolUseId === block.tool_use_id) return index;
  }
  return undefined;
}

/**
 * Checks a replay against everything the store recorded: the whole stored snapshot document (the
 * machine's persisted snapshot — state, status, every context field, output — then `journalLength`
 * and `savedAt`) against the document the replay would have written after the same journal
 * entries, then the stored result against the replayed one, by value (a store may give keys back in
 * another order). Nothing is left out as legitimately different: the machine never reads a clock
 * (every time comes from an event), `savedAt` is the snapshot's `context.now`, the grace turn's
 * length is in the spec, and a version-1 document is upgraded as it is read.
 */
export function checkReplay(
  trace: ReplayTrace,
  stored: TaskSnapshotDocument | undefined,
  recorded: TaskResult | undefined,
  replayed: TaskResult | undefined,
): ReplayCheck {
  const compared: string[] = [];
  if (stored) {
    compared.push(`the stored snapshot after ${stored.journalLength} journal entries`);
    // A journal shorter than the snapshot (an entry dropped) is compared at its end.
    const count = Math.min(stored.journalLength, trace.steps.length);
    const snapshot = after(trace, count);
    const found = firstDifference(
      comparable(stored.snapshot),
      comparable(subagentMachine.getPersistedSnapshot(snapshot)),
    );
    if (found) {
      const blamed = blame(trace, found.path, count);
      const entry = blamed && { index: blamed.index, seq: blamed.seq, type: blamed.type };
      // Nothing in the journal went another way: it stops before the entries the snapshot reflects.
      const first: ReplayDifference =
        blamed?.ended && count < stored.journalLength
          ? {
              against: 'snapshot',
              path: 'journalLength',
              recorded: stored.journalLength,
              replayed: count,
              note: `the journal ends here: the stored snapshot reflects ${stored.journalLength} entries, the journal holds ${count}`,
            }
          : { against: 'snapshot', path: found.text, recorded: found.recorded, replayed: found.replayed };
      return { matches: false, compared, first: entry ? { ...first, entry } : first };
    }
    const document = firstDifference(
      { journalLength: stored.journalLength, savedAt: stored.savedAt },
      { journalLength: count, savedAt: snapshot.context.now },
    );
    if (document) {
      const first: ReplayDifference = {
        against: 'snapshot',
        path: document.text,
        recorded: document.recorded,
        replayed: document.replayed,
      };
      return {
        matches: false,
        compared,
        first: count ? { ...first, entry: entryOf(trace, count - 1) } : first,
      };
    }
  }
  if (!recorded && !replayed) return { matches: true, compared };
  compared.push('the stored result');
  const last = trace.steps.length ? { entry: entryOf(trace, trace.steps.length - 1) } : {};
  if (!recorded || !replayed)
    return {
      matches: false,
      compared,
      first: {
        against: 'result',
        path: 'result',
        recorded: recorded ? 'a result' : 'no result',
        replayed: replayed ? 'a result' : 'no result',
        note: !recorded
          ? 'the task has no recorded result'
          : trace.steps.length === 0
            ? 'the task ended before it started: its journal is empty, there is nothing to replay'
            : 'the replay did not reach a final state',
        ...last,
      },
    };
  // What became of the task's own workspace is the host's doing, not the machine's: not replayed.
  const { workspace: _workspace, ...machineResult } = recorded;
  const found = firstDifference(
    JSON.parse(JSON.stringify(machineResult)),
    JSON.parse(JSON.stringify(replayed)),
    ['result'],
  );
  if (!found) return { matches: true, compared };
  return {
    matches: false,
    compared,
    first: {
      against: 'result',
      path: found.text,
      recorded: found.recorded,
      replayed: found.replayed,
      ...last,
    },
  };
}
