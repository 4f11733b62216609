import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import {
  type TaskWorkspaceOutcome,
  type TaskWorkspaceRecord,
  type TaskWorkspaces,
  TroupeError,
} from '@troupe/core';
import { createNodeTools } from '../tools/create-node-tools.js';
import type { NodeToolsOptions } from '../tools/node-tools-options.js';
import { git, gitSync } from './git-command.js';
import { worktreeChanges } from './worktree-changes.js';

/** Options of {@link createWorktreeWorkspaces}. */
export interface WorktreeWorkspacesOptions {
  /** The shared workspace (the root of the other Node tools): a folder inside a git repository. */
  root: string;
  /**
   * The folder task worktrees are made in, one sub-folder per task id, outside the repository so
   * the shared workspace is never touched. Default `<home>/.troupe/worktrees/<repository folder name>`.
   */
  dir?: string;
  /** The home folder of the default `dir` (default the user's, `os.homedir()`). */
  home?: string;
  /** Options of the Node tools made for each worktree (as `createNodeTools` takes them, but `root`). */
  tools?: Omit<NodeToolsOptions, 'root'>;
}

/** The fields troupe records for a worktree, beyond `path` and `branch`. */
interface WorktreeRecord extends TaskWorkspaceRecord {
  branch: string;
  /** The worktree's top folder (`path` is the workspace root inside it). */
  worktree: string;
  /** The repository's top folder. */
  repository: string;
  /** The commit the worktree started from. */
  base: string;
}

const SAFE = /^[\w.-]+$/;

function unavailable(message: string): TroupeError {
  return new TroupeError('WORKSPACE_UNAVAILABLE', message);
}

function inside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest === '' || (!rest.startsWith('..') && !isAbsolute(rest));
}

/**
 * Workspaces for agents with `isolation: worktree` (`createRuntime({ workspaces })`): each such task
 * runs in a new git worktree of `root`'s repository, on its own branch `troupe/<agent>-<task id>`
 * from the commit checked out when it was spawned, with the Node tools (`read`, `write`, `edit`,
 * `bash`, …) confined to it. The worktree's path is recorded in the task's spec, so a restore
 * resumes in the same worktree. When the task ends (completed, failed or cancelled), a worktree
 * it did not change is removed with its branch; a changed one is kept, and the result names the
 * branch and the changes (files, lines added and removed). A `root` outside any git repository, or
 * a repository with no commit, makes the spawn throw a `WORKSPACE_UNAVAILABLE` error naming it.
 */
export function createWorktreeWorkspaces(options: WorktreeWorkspacesOptions): TaskWorkspaces {
  const root = resolve(options.root);
  let top: string | undefined;
  const repository = (): string => {
    if (top) return top;
    let found: string;
    try {
      found = gitSync(root, ['rev-parse', '--show-toplevel']).trim();
    } catch (error) {
      const why = (error as Error).message;
      if (/not a git repository/i.test(why))
        throw unavailable(
          `isolation: worktree needs a git repository, and the workspace ${root} is not in one. Run \`git init\` there (and commit), or remove isolation from the agent.`,
        );
      throw error;
    }
    top = realpathSync(found);
    return top;
  };
  const dir = (): string =>
    resolve(options.dir ?? join(options.home ?? homedir(), '.troupe', 'worktrees', basename(repository())));
  // Git commands that change the repository's worktrees and branches run one at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work, work);
    queue = next.catch(() => {});
    return next;
  };

  /** A record read back from the store is checked: it must name a worktree this host makes. */
  const checked = (workspace: TaskWorkspaceRecord, taskId: string): WorktreeRecord => {
    const { path, branch, worktree, repository: repo, base } = workspace as Partial<WorktreeRecord>;
    const bad = (why: string) =>
      unavailable(`The recorded worktree of task ${taskId} is not one this workspace makes (${why}).`);
    if (workspace.isolation !== 'worktree') throw bad(`isolation is ${String(workspace.isolation)}`);
    if (typeof worktree !== 'string' || worktree !== join(dir(), taskId))
      throw bad(`worktree ${String(worktree)}`);
    if (typeof path !== 'string' || !inside(worktree, path)) throw bad(`path ${String(path)}`);
    if (typeof branch !== 'string' || !branch.startsWith('troupe/')) throw bad(`branch ${String(branch)}`);
    if (repo !== repository()) throw bad(`repository ${String(repo)}`);
    if (typeof base !== 'string' || !/^[0-9a-f]{40,64}$/.test(base)) throw bad(`base ${String(base)}`);
    return { ...workspace, path, branch, worktree, repository: repo, base };
  };

  return {
    plan({ taskId, agent, isolation }) {
      if (isolation !== 'worktree')
        throw unavailable(
          `Agent "${agent}" asks for isolation: ${isolation}; this host gives only "worktree".`,
        );
      if (!SAFE.test(taskId)) throw unavailable(`Task id ${JSON.stringify(taskId)} cannot name a worktree.`);
      const repo = repository();
      let base: string;
      try {
        base = gitSync(repo, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).trim();
      } catch {
        throw unavailable(
          `isolation: worktree needs a commit to start from, and the git repository ${repo} has none yet. Commit once, or remove isolation from the agent.`,
        );
      }
      const worktree = join(dir(), taskId);
      const record: WorktreeRecord = {
        isolation,
        path: join(worktree, relative(repo, realpathSync(root))),
        branch: `troupe/${agent.replace(/[^\w.-]/g, '-')}-${taskId}`,
        worktree,
        repository: repo,
        base,
      };
      return record;
    },

    async open(workspace, { taskId }) {
      const record = checked(workspace, taskId);
      if (!existsSync(record.worktree)) {
        mkdirSync(dir(), { recursive: true });
        // Fails when the branch exists already: a worktree made before and since deleted is not made anew.
        await serial(() =>
          git(record.repository, ['worktree', 'add', '-b', record.branch, record.worktree, record.base]),
        );
      } else {
        const onBranch = (await git(record.worktree, ['rev-parse', '--abbrev-ref', 'HEAD'])).trim();
        if (onBranch !== record.branch)
          throw unavailable(
            `The worktree ${record.worktree} of task ${taskId} is on ${onBranch}, not on its branch ${record.branch}.`,
          );
      }
      mkdirSync(record.path, { recursive: true });
      return createNodeTools({ ...options.tools, root: record.path });
    },

    async close(workspace, { taskId }): Promise<TaskWorkspaceOutcome | undefined> {
      const record = checked(workspace, taskId);
      if (!existsSync(record.worktree)) return undefined;
      const changes = await worktreeChanges(record.worktree, record.base);
      const outcome: TaskWorkspaceOutcome = {
        path: record.path,
        branch: record.branch,
        kept: changes.files > 0,
        ...changes,
      };
      if (!outcome.kept)
        await serial(async () => {
          await git(record.repository, ['worktree', 'remove', '--force', record.worktree]);
          await git(record.repository, ['branch', '-D', record.branch]);
        });
      return outcome;
    },
  };
}
