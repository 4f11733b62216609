import type { Clock } from '../clock.js';
import { TroupeError } from '../errors.js';
import type { Message } from '../model/types.js';
import { nullStore } from '../persistence/null-store.js';
import type { RunHost } from './run-host.js';
import type { SupervisorActor } from './runtime-actors.js';
import type { Session, SessionActor } from './session.js';
import type { SubagentRef } from './subagent-snapshot.js';
import { runOfActor, type TaskRun } from './task-run.js';
import type { TaskTable } from './task-table.js';

/** What hosting sessions needs from the runtime. */
export interface SessionHostingHost {
  /** What a task's run is given; a main agent's run gets it without the task store. */
  readonly runHost: RunHost;
  readonly table: TaskTable;
  readonly clock: Clock;
  readonly supervisor: SupervisorActor;
}

/**
 * @internal The runtime's side of its sessions: their actors (children of the supervisor), opened
 * and closed on their behalf, and their main-agent runs, which follow the actors the session
 * actors spawn. A main agent is not a supervised task: nothing of it goes to the task store.
 */
export class SessionHosting {
  /** What a main agent's run is given. */
  readonly runHost: RunHost;
  /** Open sessions, by their actor's id. */
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly host: SessionHostingHost) {
    const { runHost, table, clock } = host;
    this.runHost = {
      ...runHost,
      store: nullStore,
      // Background work outlives the 5-minute cache: the main agent's prefix must still be there
      // for the announcement turn when it ends (decision 2026-11-26-cache-lifetime-per-conversation).
      cacheLifetimeFor: (spec) =>
        table.list({ sessionKey: spec.sessionKey, active: true }, clock.now()).some((info) => info.background)
          ? '1h'
          : undefined,
    };
  }

  /** Keeps a session created on this runtime until it closes. */
  add(session: Session): void {
    this.sessions.set(session.actorId, session);
  }

  /** Creates a session's actor (a child of the supervisor) under `actorId`. */
  open(actorId: string, sessionKey: string, conversation: readonly Message[]): SessionActor {
    const supervisor = this.host.supervisor;
    supervisor.send({ type: 'session.opened', actorId, sessionKey, conversation });
    const actor: SessionActor | undefined = supervisor.system.get(actorId);
    if (!actor) throw new TroupeError('RUNTIME_STOPPED', `Session ${actorId} could not be opened.`);
    return actor;
  }

  /** Stops a session's actor, and with it a run in progress. */
  close(actorId: string): void {
    this.sessions.delete(actorId);
    this.host.supervisor.send({ type: 'session.closed', actorId });
  }

  /** A session's actor spawned the run planned for one of its messages. */
  runStarted(sessionActorId: string, runId: string, actor: SubagentRef): void {
    this.sessions.get(sessionActorId)?.runStarted(runId, actor);
  }

  /** A main-agent run follows its actor (a child of the session's) and starts. */
  startRun(run: TaskRun, actor: SubagentRef): void {
    run.attach(actor);
    run.begin();
  }

  /**
   * The main agent's run in progress with this id, or undefined. The session's actor owns it: the
   * run is its child while it runs (system id `<session actor id>/<run id>`), found through it.
   */
  runOf(taskId: string): TaskRun | undefined {
    const { supervisor } = this.host;
    for (const actorId of this.sessions.keys()) {
      const session: SessionActor | undefined = supervisor.system.get(actorId);
      if (session?.getSnapshot().context.run !== taskId) continue;
      const run = runOfActor(supervisor.system.get(`${actorId}/${taskId}`));
      return run && !run.ended ? run : undefined;
    }
    return undefined;
  }

  /** Interrupts and closes every open session (their runs are not persisted: they end with the runtime). */
  closeAll(): void {
    for (const session of [...this.sessions.values()]) {
      session.interrupt();
      session.close();
    }
    this.sessions.clear();
  }
}
