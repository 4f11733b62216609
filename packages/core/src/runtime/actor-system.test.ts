import { describe, expect, it } from 'vitest';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { textReply, toolReply } from '../testing/scripted-model.js';
import { fixtureRuntime } from './test-fixtures.js';

interface Seen {
  /** Actor id → the id of its parent (undefined for the root), in creation order. */
  parents: Map<string, string | undefined>;
  /** Actor id → every snapshot it reported: the object, and its JSON when it was reported. */
  snapshots: Map<string, { snapshot: { value: unknown; context: unknown }; json: string }[]>;
  roots: Set<string>;
  /** `<parent id>/<id>` of each effect actor (a model call, a tool call, an approval, a deadline). */
  effects: Set<string>;
}

const EFFECTS = new Set(['model', 'tool', 'approval', 'deadline']);

function recorder(): { seen: Seen; inspect: (event: InspectionEvent) => void } {
  const seen: Seen = { parents: new Map(), snapshots: new Map(), roots: new Set(), effects: new Set() };
  const inspect = (event: InspectionEvent) => {
    const actor = event.actorRef as AnyActorRef & { _parent?: AnyActorRef };
    seen.roots.add(event.rootId);
    if (event.type === '@xstate.actor') {
      if (EFFECTS.has(actor.id)) seen.effects.add(`${actor._parent?.id}/${actor.id}`);
      else seen.parents.set(actor.id, actor._parent?.id);
    }
    if (event.type === '@xstate.snapshot') {
      const snapshot = event.snapshot as unknown as { value: unknown; context: unknown };
      const list = seen.snapshots.get(actor.id) ?? [];
      list.push({ snapshot, json: JSON.stringify({ value: snapshot.value, context: snapshot.context }) });
      seen.snapshots.set(actor.id, list);
    }
  };
  return { seen, inspect };
}

/** The distinct consecutive values of `pick` over an actor's snapshots. */
function history<T>(seen: Seen, id: string, pick: (snapshot: { value: unknown; context: never }) => T): T[] {
  const out: T[] = [];
  for (const { snapshot } of seen.snapshots.get(id) ?? []) {
    const value = pick(snapshot as never);
    if (JSON.stringify(out.at(-1)) !== JSON.stringify(value)) out.push(value);
  }
  return out;
}

describe('one actor system per runtime', () => {
  it('shows the supervisor, the session, its main-agent run and the delegated task, with their parents and true snapshots', async () => {
    const { seen, inspect } = recorder();
    const { runtime } = fixtureRuntime(
      (request) => {
        if (!request.taskId?.startsWith('s1#')) return textReply('auth lives in src/auth.ts');
        return request.messages.length === 1
          ? toolReply('task', { description: 'Find auth', prompt: 'Find it', subagent_type: 'explore' })
          : textReply('It is in src/auth.ts.');
      },
      { inspect },
    );
    const session = runtime.createSession({ sessionKey: 's1' });
    const reply = await session.send('Where is auth?');
    expect(reply.text).toBe('It is in src/auth.ts.');
    const [task] = runtime.list();

    // One system: every actor reports the same root, and the tree is the runtime's real structure.
    expect(seen.roots.size).toBe(1);
    expect([...seen.parents]).toEqual([
      ['supervisor', undefined],
      [session.actorId, 'supervisor'],
      ['s1#1', session.actorId],
      [task!.id, 'supervisor'],
    ]);
    // The effects are actors too, each invoked by the run or task whose state wants it.
    expect([...seen.effects].sort()).toEqual(
      ['s1#1/model', 's1#1/deadline', 's1#1/tool', `${task!.id}/model`, `${task!.id}/deadline`].sort(),
    );

    // Every snapshot is immutable: what each one said when reported is what it says now.
    for (const [id, list] of seen.snapshots)
      for (const { snapshot, json } of list)
        expect(JSON.stringify({ value: snapshot.value, context: snapshot.context }), id).toBe(json);

    // The snapshot sequences reproduce each actor's history.
    type Supervisor = { context: { running: { taskId: string }[]; queue: { size: number } } };
    expect(
      history(seen, 'supervisor', (s) => (s as Supervisor).context.running.map((r) => r.taskId)),
    ).toEqual([[], [task!.id], []]);
    expect(history(seen, session.actorId, (s) => s.value)).toEqual(['idle', 'running', 'idle']);
    expect(history(seen, task!.id, (s) => s.value)).toEqual([
      'pending',
      { running: 'thinking' },
      'completed',
    ]);
    expect(history(seen, 's1#1', (s) => s.value)).toEqual([
      'pending',
      { running: 'thinking' },
      { running: 'acting' },
      { running: 'thinking' },
      'completed',
    ]);
  });

  it('queues past maxConcurrent in the supervisor context, one snapshot per change, never mutated later', async () => {
    const { seen, inspect } = recorder();
    const { runtime } = fixtureRuntime(() => textReply('done'), { inspect, limits: { maxConcurrent: 1 } });
    const handles = [1, 2, 3].map((n) => runtime.spawn({ agent: 'explore', prompt: `p${n}` }));
    await Promise.all(handles.map((handle) => handle.result));
    type Supervisor = { context: { running: { taskId: string }[]; queue: { size: number } } };
    const states = history(seen, 'supervisor', (s) => {
      const { running, queue } = (s as Supervisor).context;
      return `${running.map((r) => r.taskId).join(',') || '-'} | ${queue.size}`;
    });
    const [a, b, c] = handles.map((handle) => handle.id);
    expect(states).toEqual(['- | 0', `${a} | 0`, `${a} | 1`, `${a} | 2`, `${b} | 1`, `${c} | 0`, '- | 0']);
    for (const list of seen.snapshots.values())
      for (const { snapshot, json } of list)
        expect(JSON.stringify({ value: snapshot.value, context: snapshot.context })).toBe(json);
  });
});
