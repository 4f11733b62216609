import type { ReplayOutcome, TaskSnapshotDocument } from '@troupe/core';
import { firstDifference, type JsonPath, valueAt } from '@troupe/core/internal';

/** Where a replay first went another way than the recorded run. */
export interface ReplayDifference {
  /** What it was compared with: the stored snapshot document, or the stored result. */
  against: 'snapshot' | 'result';
  /** The first differing value, e.g. `context.messages[3].content[0].text`, `value`, `result.output`. */
  path: string;
  recorded: unknown;
  replayed: unknown;
  /**
   * The journal entry after which the replay last set that value: the event that went another
   * way. Undefined when the value comes from the task's spec (it never changed in the replay).
   */
  entry?: { seq: number; type: string };
  /** The difference in words, when it is not a value (`the replay did not reach a final state`). */
  note?: string;
}

/** Whether a replay reproduced the recorded run exactly, and what was compared. */
export interface ReplayCheck {
  exact: boolean;
  /** What was compared, in words (`the stored snapshot after 6 journal entries`, `the stored result`). */
  compared: string[];
  /** The first difference, when not exact. */
  first?: ReplayDifference;
  /** What could not be compared, and why (`the stored snapshot cannot be read: …`). */
  skipped?: string;
}

type Snapshot = ReplayOutcome['snapshot'];

/** The parts of a snapshot that are persisted, as plain JSON, in the order they are compared. */
function persisted(snapshot: Snapshot | Record<string, unknown>): Record<string, unknown> {
  const source = snapshot as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ['status', 'value', 'context', 'output', 'error'])
    if (source[key] !== undefined) out[key] = JSON.parse(JSON.stringify(source[key]));
  return out;
}

/**
 * The journal entry after which the replay last changed the value at `path`, up to step `last`;
 * undefined when the value is the one the actor started with (it comes from the task's spec).
 */
function lastChange(outcome: ReplayOutcome, path: JsonPath, last: number, initial: Snapshot | undefined) {
  const json = (snapshot: Snapshot | undefined) =>
    snapshot ? JSON.stringify(valueAt(persisted(snapshot), path)) : undefined;
  const final = json(outcome.steps[last]!.snapshot);
  for (let index = last; index >= 0; index--) {
    const before = index > 0 ? outcome.steps[index - 1]!.snapshot : initial;
    if (json(before) !== final) {
      const step = outcome.steps[index]!;
      return { seq: step.seq, type: step.event.type };
    }
  }
  return undefined;
}

/**
 * Checks a replay against everything the store recorded: the whole stored snapshot (state,
 * status, context — every field of it — and output) at the journal length it reflects, and the
 * stored result. Reports the first differing value and the journal entry whose event made it
 * differ (`initial`, the replay's first snapshot, tells a value of the spec from one the first
 * entry set). A replay is exact when nothing differs.
 */
export function checkReplay(
  outcome: ReplayOutcome,
  stored: TaskSnapshotDocument | undefined,
  initial?: Snapshot,
): ReplayCheck {
  const compared: string[] = [];
  if (stored) {
    const length = stored.journalLength;
    compared.push(`the stored snapshot after ${length} journal entries`);
    if (length > outcome.steps.length)
      return {
        exact: false,
        compared,
        first: {
          against: 'snapshot',
          path: 'journal',
          recorded: `${length} entries`,
          replayed: `${outcome.steps.length} entries`,
        },
      };
    if (length > 0) {
      const found = firstDifference(
        persisted(stored.snapshot as Record<string, unknown>),
        persisted(outcome.steps[length - 1]!.snapshot),
      );
      if (found) {
        const entry = lastChange(outcome, found.path, length - 1, initial);
        return {
          exact: false,
          compared,
          first: {
            against: 'snapshot',
            path: found.text,
            recorded: found.recorded,
            replayed: found.replayed,
            ...(entry ? { entry } : {}),
          },
        };
      }
    }
  }
  const { recorded, result: replayed } = outcome;
  if (!recorded && !replayed) return { exact: true, compared };
  compared.push('the stored result');
  const last = outcome.steps.at(-1);
  const entry = last ? { entry: { seq: last.seq, type: last.event.type } } : {};
  if (!recorded || !replayed)
    return {
      exact: false,
      compared,
      first: {
        against: 'result',
        path: 'result',
        recorded: recorded ? 'a result' : 'no result',
        replayed: replayed ? 'a result' : 'no result',
        note: recorded ? 'the replay did not reach a final state' : 'the task has no recorded result',
        ...entry,
      },
    };
  // By value, not by text: a store that parses its documents may give the fields in another order.
  const found = firstDifference(JSON.parse(JSON.stringify(recorded)), JSON.parse(JSON.stringify(replayed)), [
    'result',
  ]);
  if (!found) return { exact: true, compared };
  return {
    exact: false,
    compared,
    first: {
      against: 'result',
      path: found.text,
      recorded: found.recorded,
      replayed: found.replayed,
      ...entry,
    },
  };
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/**
 * A difference in one line: `at journal entry 3 (MODEL_RESPONDED): context.messages[3].content:
 * recorded "…", replayed "…"`.
 */
export function describeDifference(difference: ReplayDifference): string {
  if (difference.path === 'journal')
    return `in the journal: the stored snapshot reflects ${difference.recorded}, the journal holds ${difference.replayed}`;
  const where = difference.entry
    ? `at journal entry ${difference.entry.seq} (${difference.entry.type})`
    : 'in the task as spawned';
  if (difference.note) return `${where}: ${difference.note}`;
  return `${where}: ${difference.path}: recorded ${shown(difference.recorded)}, replayed ${shown(difference.replayed)}`;
}
