import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryStore, createRuntime, type ModelRequest } from '@troupe/core';
import { type Script, type ScriptedReply, scriptedModel } from '@troupe/core/testing';
import type { HookConfig } from '../../src/hooks/hook-config.js';
import { createShellHooks, type ShellHooksOptions } from '../../src/hooks/shell-hooks.js';
import { createNodeTools } from '../../src/tools/create-node-tools.js';
import { useTempDir } from './temp-dir.js';

/** The last message of a request, as JSON (to look for what a hook added). */
export const lastMessage = (request: ModelRequest) =>
  JSON.stringify(request.messages[request.messages.length - 1]);

/** A model reply calling one tool. */
export const toolCall = (name: string, input: object, id = 'call-1') => ({
  content: [{ type: 'tool_use' as const, id, name, input }],
});

/** A model reply of plain text (no usage). */
export const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

/** A runtime of {@link HookFolder.runtime} and what it saw. */
export interface HookRuntime {
  runtime: ReturnType<typeof createRuntime>;
  model: ReturnType<typeof scriptedModel>;
  store: ReturnType<typeof createMemoryStore>;
  /** The hooks' warnings (`onWarning`) and the runtime's (`code: message`), in order. */
  warnings: string[];
}

/** The folder of a shell-hooks test: the hooks' cwd and the tools' root, fresh for each test. */
export interface HookFolder {
  readonly dir: string;
  /** Writes an executable shell script `name` (a `#!/bin/sh` line, then `body`); returns its path. */
  script(name: string, body: string): string;
  /**
   * A runtime over a memory store with the Node tools rooted in the folder, one `worker` agent,
   * approval `auto`, and shell hooks from `settings` (cwd the folder, 10 s default timeout).
   */
  runtime(
    settings: HookConfig,
    model: Script | readonly ScriptedReply[],
    more?: Partial<ShellHooksOptions>,
  ): HookRuntime;
}

/** Gives each test of the calling file a fresh {@link HookFolder}, removed after it. */
export function useHookFolder(): HookFolder {
  const temp = useTempDir('troupe-hooks-');
  return {
    get dir() {
      return temp.path;
    },
    script(name, body) {
      const path = join(temp.path, name);
      writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
      return path;
    },
    runtime(settings, modelScript, more = {}) {
      const warnings: string[] = [];
      const model = scriptedModel(modelScript);
      const store = createMemoryStore();
      const runtime = createRuntime({
        model,
        store,
        tools: createNodeTools({ root: temp.path }),
        agents: [{ name: 'worker', description: 'Works.', systemPrompt: 'You work.' }],
        approval: 'auto',
        hooks: createShellHooks({
          cwd: temp.path,
          settings: [settings],
          onWarning: (message) => warnings.push(message),
          defaultTimeoutSeconds: 10,
          ...more,
        }),
      });
      runtime.on('runtime.warning', (warning) => warnings.push(`${warning.code}: ${warning.message}`));
      return { runtime, model, store, warnings };
    },
  };
}
