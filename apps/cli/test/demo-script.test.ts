import { createMemoryStore, createRuntime } from '@troupe/core';
import { createNodeTools, loadAgentDirectories } from '@troupe/node';
import { describe, expect, it } from 'vitest';
import { createDemoModel } from '../src/demo/demo-model.js';
import { DEMO_TASKS } from '../src/demo/demo-tasks.js';
import { DEMO_REQUEST, mainAgentTurn } from '../src/demo/main-script.js';
import { globFacts, grepCountFacts, listSome, lsFacts, readText } from '../src/demo/tool-facts.js';
import { fixtureProject, tempDir } from './helpers/cli.js';

describe('reading tool answers', () => {
  it('glob: the listed paths and the total from the "more files" note', () => {
    expect(
      globFacts('a.ts\nb.ts\n\n[98 more files not shown (100 in all): use a more specific pattern or path.]'),
    ).toEqual({
      paths: ['a.ts', 'b.ts'],
      total: 100,
    });
    expect(globFacts('No files match "*.rs" in ..')).toEqual({ paths: [], total: 0 });
  });

  it('grep count mode: totals and the busiest file', () => {
    expect(grepCountFacts('src/a.ts:3\nsrc/b.ts:7\n\nTotal: 10 matching lines in 2 files.')).toEqual({
      lines: 10,
      files: 2,
      top: { path: 'src/b.ts', count: 7 },
    });
    expect(grepCountFacts('No matches found.')).toEqual({ lines: 0, files: 0 });
  });

  it('ls and read', () => {
    expect(lsFacts('./ (1 directories, 2 files)\nsrc/\nREADME.md  (1.2 KB)\nlink -> target')).toEqual({
      directories: ['src'],
      files: ['README.md', 'link'],
    });
    expect(readText('     1\t{\n     2\t  "a": 1\n     3\t}\n\n(3 lines)')).toBe('{\n  "a": 1\n}');
    expect(listSome(['a', 'b', 'c', 'd'])).toBe('a, b, c and 1 more');
    expect(listSome(['a', 'b'])).toBe('a and b');
  });
});

describe('the demo script', () => {
  it('the main agent starts every task in the background in one reply', () => {
    const content = mainAgentTurn([{ role: 'user', content: DEMO_REQUEST }]);
    const calls = content.filter((block) => block.type === 'tool_use');
    expect(calls).toHaveLength(7);
    expect(calls.map((call) => (call.type === 'tool_use' ? call.input : undefined))).toEqual(
      DEMO_TASKS.map((task) =>
        expect.objectContaining({
          subagent_type: task.agent,
          description: task.description,
          run_in_background: true,
        }),
      ),
    );
  });

  it('runs with the real tools and built-in agents: every task ends, one waits for approval', async () => {
    const project = fixtureProject();
    const home = tempDir('home');
    const runtime = createRuntime({
      model: createDemoModel({ pace: 0 }),
      agents: await loadAgentDirectories({ cwd: home, home }),
      tools: createNodeTools({ root: project, globSort: 'name' }),
      store: createMemoryStore(),
    });
    const approvals: string[] = [];
    runtime.on('approval.requested', (request) => {
      approvals.push(`${request.agent} ${request.tool}`);
      runtime.deny(request.id, 'not in this test');
    });
    const session = runtime.createSession({ sessionKey: 'demo' });
    const replies: string[] = [];
    const all = new Promise<void>((resolve) =>
      session.on('message', (message) => {
        if (message.kind === 'reply') replies.push(message.text);
        if (replies.length === 8) resolve();
      }),
    );
    runtime.on('tool.finished', (event) => {
      if (event.description === 'Very thorough search for tests') runtime.cancel(event.taskId);
    });
    await session.send(DEMO_REQUEST);
    await all;
    expect(approvals).toEqual(['general-purpose bash']);
    const tasks = runtime.list({ sessionKey: 'demo' });
    expect(tasks.map((task) => task.status).sort()).toEqual(
      [...Array(6).fill('completed'), 'cancelled'].sort(),
    );
    const investigator = tasks.find((task) => task.agent === 'codebase-investigator')!;
    // Its answer passed the built-in agent's output schema, so it is structured data.
    expect(investigator.result?.output).toMatchObject({
      summary: expect.stringContaining('fixture-shop'),
      relevantLocations: [{ filePath: 'package.json', keySymbols: ['start', 'test'] }],
    });
    expect(replies).toContain(
      'Count lines of code: I was not allowed to run the command, so I could not count the lines.',
    );
    expect(replies.at(-1)).toContain("That's all 7 tasks: 6 finished, 1 cancelled.");
    await runtime.shutdown();
  });
});
