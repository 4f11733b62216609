// A troupe process running an agent team, for the team crash test. Phase `run` creates the team and
// is killed (SIGKILL) while carol's write tool runs; phase `restore` brings the team back in a new
// process, lets it finish, replays it, and prints what each member received. Markers on stdout
// (`MARK <name>`) tell the test where the process is. Usage:
//   node --conditions=source --import tsx team-child.ts team <phase> <storeDir> <ledgerFile>
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRuntime, defineTool, type Message, replayTeam } from '@troupe/core';
import { reportTeamCast, reportTeamJob } from '@troupe/core/testing';
import { createFileStore } from '@troupe/node';
import * as v from 'valibot';

const [, phase, dir, ledger] = process.argv.slice(2) as [string, 'run' | 'restore', string, string];
const store = createFileStore({ dir, snapshotDelayMs: 0 });
const mark = (name: string) => process.stdout.write(`MARK ${name}\n`);
const never = () => new Promise<never>(() => {});

/**
 * The ids of the team messages (`<teammate-message id="m3" …>`) the text of a spell's user messages
 * holds, in order (a tool's result is no delivery).
 */
const messageIds = (messages: readonly Message[]) =>
  messages
    .filter((message) => message.role === 'user')
    .flatMap((message) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])),
    )
    .flatMap((text) => [...text.matchAll(/<teammate-message id="(m\d+)"/g)].map((match) => match[1]!));

/** The write tool: appends its call id to the ledger (the side effect that must never repeat). */
const save = defineTool({
  name: 'save',
  description: 'Saves a note to the ledger.',
  access: 'write',
  input: v.object({ note: v.string() }),
  execute: async ({ note }, { toolUseId }) => {
    appendFileSync(ledger, `${toolUseId} ${note}\n`);
    if (phase === 'run' && note === 'the report') {
      await store.flush();
      mark('save');
      return never();
    }
    return 'saved';
  },
});

// The job's model and agents; its `save` is this process's own (it records each call, and hangs in `run`).
const runtime = createRuntime({ ...reportTeamCast(), store, tools: [save], approval: 'auto' });

if (phase === 'run') {
  const team = await runtime.createTeam(reportTeamJob.options);
  writeFileSync(`${ledger}.team`, team.id);
  await never();
} else {
  const teamId = readFileSync(`${ledger}.team`, 'utf8');
  const { restored } = await runtime.restore();
  mark(`restored ${restored.length}`);
  const result = await runtime.team(teamId)!.result;
  await runtime.shutdown();
  const replay = await replayTeam(store, teamId);
  // What each member's spells received, in spell order (each spell's own part of its conversation).
  const received: Record<string, string[]> = {};
  for (const spell of replay.spells) {
    const stored = (await store.getTask(spell.taskId))!;
    const own = spell.outcome.snapshot.context.messages.slice(stored.spec.messages.length - 1);
    received[spell.member] = [...(received[spell.member] ?? []), ...messageIds(own)];
  }
  process.stdout.write(
    `RESULT ${JSON.stringify({ restored, result, replay: { matches: replay.matches, differences: replay.differences }, received })}\n`,
  );
}
