// A recorded agent team run for the team track's tests: core's scripted team job (`reportTeamJob`
// of `@troupe/core/testing`: a lead and three teammates, task dependencies, a broadcast, plan
// approval) on a memory store, with a clock that ticks 10 ms at every reading, so every event has
// its own time.
import { type Clock, createMemoryStore, createRuntime, type TaskStore } from '@troupe/core';
import { reportTeamCast, reportTeamJob } from '@troupe/core/testing';
import { recordTeams } from '../src/timeline/record-teams.js';
import type { TimelineRecorder } from '../src/timeline/recorder.js';

/** A clock whose time moves 10 ms each time it is read; its timers never fire (no deadline is reached). */
export function tickingClock(start = 1_700_000_000_000): Clock {
  let now = start;
  return {
    now: () => {
      now += 10;
      return now;
    },
    setTimeout: () => 0,
    clearTimeout: () => {},
  };
}

/**
 * A finished team run of the scripted job: its store and the team's id. With a recorder, the run is
 * recorded live: its actors (`inspect`) and its team's events (`recordTeams`).
 */
export async function recordTeamJob(store: TaskStore = createMemoryStore(), recorder?: TimelineRecorder) {
  const runtime = createRuntime({
    ...reportTeamCast(),
    clock: tickingClock(),
    store,
    approval: 'auto',
    ...(recorder ? { inspect: recorder.inspect } : {}),
  });
  if (recorder) recordTeams(runtime, recorder);
  const team = await runtime.createTeam(reportTeamJob.options);
  const result = await team.result;
  await runtime.shutdown({ keepTasks: true });
  await store.flush();
  return { store, teamId: team.id, result };
}
