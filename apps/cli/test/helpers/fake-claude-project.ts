import { afterEach, beforeEach } from 'vitest';
import type { FakeAnthropicServer, FakeHandler } from '../../../../test/fake-anthropic/index.js';
import { cleanEnv, fixtureProject, tempDir } from './cli.js';
import { fakeEnv, startFakeClaude } from './fake-claude.js';

/** The project, home and fake Claude of the running test (each throws outside a test). */
export interface FakeClaudeProject {
  /** A fresh copy of the fixture project: the CLI's working folder. */
  readonly project: string;
  /** A fresh HOME. */
  readonly home: string;
  readonly server: FakeAnthropicServer;
  /** The CLI's environment: {@link cleanEnv} of the home, pointed at the fake, plus `extra`. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

/**
 * Gives each test of the calling file a fresh copy of the fixture project, a fresh home and a fake
 * Claude answering with the handler `prepare` returns; `prepare` may first write into the project.
 * The fake is closed after each test; the folders go with the test file's temporary folders.
 */
export function useFakeClaudeProject(
  prepare: (folders: { project: string; home: string }) => FakeHandler | Promise<FakeHandler>,
): FakeClaudeProject {
  let current: { project: string; home: string; server: FakeAnthropicServer } | undefined;
  beforeEach(async () => {
    const folders = { project: fixtureProject(), home: tempDir('home') };
    current = { ...folders, server: await startFakeClaude(await prepare(folders)) };
  });
  afterEach(async () => {
    await current?.server.close();
    current = undefined;
  });
  const now = () => {
    if (!current) throw new Error('useFakeClaudeProject: the project exists only inside a test');
    return current;
  };
  return {
    get project() {
      return now().project;
    },
    get home() {
      return now().home;
    },
    get server() {
      return now().server;
    },
    env: (extra = {}) => cleanEnv(now().home, { ...fakeEnv(now().server), ...extra }),
  };
}
