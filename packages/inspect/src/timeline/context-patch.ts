import type { Redactor } from '../wire/redact.js';
import { REDACTED } from '../wire/redact.js';
import { toJsonValue } from '../wire/to-json-value.js';
import type { ContextPatch } from './types.js';

/** What the recorder remembers of one actor's context to write the next snapshot as a patch. */
export interface ContextTrack {
  live: Record<string, unknown> | undefined;
  json: Map<string, string>;
}

function isPlain(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === Array.prototype || prototype === null;
}

function jsonOf(key: string, value: unknown, redactor: Redactor): unknown {
  return redactor.isSecretKey(key) && value !== undefined && value !== null && value !== ''
    ? REDACTED
    : (toJsonValue(value, redactor) ?? null);
}

/**
 * The patch that turns the recorded previous context into `next`, top-level field by field. XState
 * copies only the fields an `assign` changes, so an unchanged field is the same object: it costs
 * nothing. An array that grew at the end (a conversation) is recorded as the appended items only.
 * Values that are not plain data (Maps, class instances mutated in place) are compared as JSON.
 */
export function diffContext(
  track: ContextTrack,
  next: Record<string, unknown>,
  redactor: Redactor,
): ContextPatch[] {
  const patch: ContextPatch[] = [];
  const previous = track.live;
  for (const key of Object.keys(next)) {
    const value = next[key];
    const had = previous !== undefined && Object.hasOwn(previous, key);
    const before = had ? previous[key] : undefined;
    if (had && before === value && isPlain(value)) continue;
    if (
      Array.isArray(before) &&
      Array.isArray(value) &&
      value.length > before.length &&
      !redactor.isSecretKey(key) &&
      before.every((item, index) => item === value[index])
    ) {
      patch.push({
        op: 'append',
        key,
        values: value.slice(before.length).map((item) => toJsonValue(item, redactor) ?? null),
      });
      track.json.delete(key);
      continue;
    }
    const converted = jsonOf(key, value, redactor);
    const json = JSON.stringify(converted);
    if (had && json === track.json.get(key)) continue;
    track.json.set(key, json);
    patch.push({ op: 'set', key, value: converted });
  }
  if (previous) {
    for (const key of Object.keys(previous)) {
      if (!Object.hasOwn(next, key)) {
        patch.push({ op: 'unset', key });
        track.json.delete(key);
      }
    }
  }
  track.live = next;
  return patch;
}

/** Starts tracking a context recorded in full; returns its JSON form. */
export function trackContext(track: ContextTrack, context: Record<string, unknown>, redactor: Redactor) {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(context)) {
    const converted = jsonOf(key, context[key], redactor);
    out[key] = converted;
    track.json.set(key, JSON.stringify(converted));
  }
  track.live = context;
  return out;
}

/** Applies a patch to a context (a new object; unchanged fields are shared). */
export function applyPatch(context: unknown, patch: readonly ContextPatch[]): Record<string, unknown> {
  const out: Record<string, unknown> =
    context && typeof context === 'object' && !Array.isArray(context)
      ? { ...(context as Record<string, unknown>) }
      : {};
  for (const change of patch) {
    if (change.op === 'set') out[change.key] = change.value;
    else if (change.op === 'unset') delete out[change.key];
    else {
      const before = out[change.key];
      out[change.key] = [...(Array.isArray(before) ? before : []), ...change.values];
    }
  }
  return out;
}
