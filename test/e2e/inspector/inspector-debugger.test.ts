// The inspector as a debugger, in real headless Chromium: the supervisor's, the session's and the
// sub-agent's charts fitted to their pane with no label over another, the trace view showing the
// journal's messages and tool inputs and outputs at each step, the run tree and its lanes, the
// empty page, narrow screens, and axe-core's accessibility check.
// Screenshots go to test/e2e/inspector/artifacts/ (look at them).
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible } from '../accessibility.js';
import { artifacts, useInspector } from './inspector-browser.js';
import { type RecordedSession, recordSession } from './recorded-runs.js';

let run: RecordedSession;
const inspector = useInspector({
  prefix: 'troupe-debugger-',
  fileName: 'session.timeline.jsonl',
  record: async () => {
    run = await recordSession();
    return run.timeline;
  },
});

/** Steps to a frame with the slider's keyboard-free path: first, then forward. */
async function goTo(page: Page, index: number) {
  await page.getByTestId('first').click();
  for (let step = 0; step < index; step++) await page.getByTestId('forward').click();
  await inspector.expectStep(page, index);
}

interface Rect {
  text: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The chart's state boxes and every piece of text in it, in screen px, and the pane's box. */
async function chartBoxes(page: Page): Promise<{
  machine: string | null;
  pane: Rect;
  states: Rect[];
  labels: Rect[];
}> {
  // A string, run in the page (the tests are typed without the DOM library).
  return page.evaluate(`(() => {
    const svg = document.querySelector('[data-testid="chart"] svg.chart');
    const rect = (element, text) => {
      const box = element.getBoundingClientRect();
      return { text, x: box.x, y: box.y, width: box.width, height: box.height };
    };
    return {
      machine: svg.getAttribute('data-machine'),
      pane: rect(svg, 'pane'),
      states: [...svg.querySelectorAll('g.state')].map((group) =>
        rect(group.querySelector('rect'), group.getAttribute('data-path')),
      ),
      labels: [...svg.querySelectorAll('text')].map((text) => rect(text, text.textContent)),
    };
  })()`);
}

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;

async function checkChart(page: Page, machine: string, shot: string) {
  await expect.poll(async () => (await chartBoxes(page)).machine).toBe(machine);
  const { pane, states, labels } = await chartBoxes(page);
  expect(states.length).toBeGreaterThan(0);
  for (const state of states) {
    expect(state.x, `${machine}: ${state.text} inside the pane`).toBeGreaterThanOrEqual(pane.x - 0.5);
    expect(state.y, `${machine}: ${state.text} inside the pane`).toBeGreaterThanOrEqual(pane.y - 0.5);
    expect(state.x + state.width).toBeLessThanOrEqual(pane.x + pane.width + 0.5);
    expect(state.y + state.height).toBeLessThanOrEqual(pane.y + pane.height + 0.5);
  }
  for (const [index, label] of labels.entries())
    for (const other of labels.slice(index + 1))
      expect(overlaps(label, other), `${machine}: "${label.text}" overlaps "${other.text}"`).toBe(false);
  // No label crosses a state's border: it lies inside the box or outside it.
  for (const label of labels)
    for (const state of states) {
      const inside =
        label.x >= state.x - 1 &&
        label.y >= state.y - 1 &&
        label.x + label.width <= state.x + state.width + 1 &&
        label.y + label.height <= state.y + state.height + 1;
      if (!inside)
        expect(overlaps(label, state), `${machine}: "${label.text}" over ${state.text}`).toBe(false);
    }
  await page.screenshot({ path: join(artifacts, shot) });
}

describe('the inspector as a debugger, in Chromium', () => {
  it('says what to do when nothing is open, with the transport disabled', async () => {
    const page = await inspector.browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${inspector.relay.url}/#/inspector`);
      await expect.poll(() => page.locator('.empty').textContent()).toMatch(/Open a timeline file/);
      for (const id of ['first', 'back', 'play', 'forward', 'last', 'slider'])
        expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
      await page.screenshot({ path: join(artifacts, 'debugger-empty.png') });
    } finally {
      await page.close();
    }
  }, 30_000);

  for (const width of [1280, 768, 390])
    it(`draws the supervisor's, the session's and the sub-agent's charts inside their pane, no label over another (${width} px)`, async () => {
      const { page, errors } = await inspector.open(width);
      try {
        await checkChart(page, 'supervisor', `debugger-chart-supervisor-${width}.png`);
        const last = inspector.model.frames.length - 1;
        await page.getByTestId('last').click();
        await page
          .locator('.actor', { hasText: /^session/ })
          .first()
          .click();
        await checkChart(page, 'session', `debugger-chart-session-${width}.png`);
        // The foreground task at the step it took its tool calls: `running.acting` lit, and the
        // transition taken.
        const taskId = run.taskIds[0]!;
        const acting = inspector.model.frames.findIndex(
          (frame) =>
            frame.actors.get(frame.sessionId)?.name === taskId && frame.event?.type === 'model.responded',
        );
        await goTo(page, acting);
        await page.locator('.actor', { hasText: taskId }).click();
        await checkChart(page, 'subagent', `debugger-chart-subagent-${width}.png`);
        expect(
          await page
            .locator('[data-testid="chart"] [data-active]')
            .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-path'))),
        ).toEqual(['running', 'running.acting']);
        // The label names the event; a compact chart gives the guard on hover.
        const taken = page.locator('[data-testid="chart"] .transition[data-taken]');
        expect(await taken.locator('.edge-label').textContent()).toMatch(
          /^model\.responded( \[hasToolCalls\])?$/,
        );
        expect(await taken.locator('title').textContent()).toContain('model.responded [hasToolCalls]');
        // Pan and zoom, then fit again.
        const before = await page.locator('svg.chart').getAttribute('viewBox');
        await page.getByRole('button', { name: 'Zoom in' }).click();
        expect(await page.locator('svg.chart').getAttribute('viewBox')).not.toBe(before);
        await page.getByRole('button', { name: 'Fit the chart to the pane' }).click();
        expect(await page.locator('svg.chart').getAttribute('viewBox')).toBe(before);
        expect(last).toBeGreaterThan(acting);
        // Nothing scrolls sideways.
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
        await page.screenshot({ path: join(artifacts, `debugger-page-${width}.png`), fullPage: true });
        expect(errors).toEqual([]);
      } finally {
        await page.close();
      }
    }, 120_000);

  it("steps through the run and shows, at each step, the task's messages and tool inputs and outputs so far", async () => {
    const { page, errors } = await inspector.open(1280);
    try {
      const taskId = run.taskIds[0]!;
      const first = inspector.model.frames.findIndex(
        (frame) => frame.actors.get(frame.sessionId)?.name === taskId,
      );
      const session = inspector.model.frames[first]!.sessionId;
      await goTo(page, first);
      await page.locator('.actor', { hasText: taskId }).click();
      let sawResult = false;
      for (let index = first; index < inspector.model.frames.length; index++) {
        if (index > first) await page.getByTestId('forward').click();
        const actor = inspector.model.frames[index]!.actors.get(session);
        if (!actor) break;
        const messages = actor.context.messages as { role: string; content: unknown }[];
        const blocks = messages.flatMap((message) =>
          typeof message.content === 'string' ? [] : (message.content as Record<string, unknown>[]),
        );
        const inputs = blocks
          .filter((block) => block.type === 'tool_use')
          .map((block) => JSON.stringify(block.input, null, 2));
        const outputs = blocks
          .filter((block) => block.type === 'tool_result')
          .map((block) =>
            typeof block.content === 'string'
              ? block.content
              : (block.content as { text: string }[]).map((part) => part.text).join('\n'),
          );
        sawResult ||= outputs.length > 0;
        await expect
          .poll(() => page.locator('.conversation .message[data-index]').count(), { timeout: 5000 })
          .toBe(messages.length);
        expect(
          await page.locator('.conversation .tool-input').allTextContents(),
          `step ${index + 1}`,
        ).toEqual(inputs);
        expect(
          await page.locator('.conversation .tool-output').allTextContents(),
          `step ${index + 1}`,
        ).toEqual(outputs);
        if (
          inspector.model.frames[index]!.sessionId === session &&
          inspector.model.frames[index]!.event?.type === 'model.responded'
        )
          expect(await page.getByTestId('step-facts').textContent()).toMatch(/This call.*in · .*out · ≈ \$/);
      }
      expect(sawResult).toBe(true);
      // A live timeline carries the task's system prompt (from the supervisor's task.submitted).
      const system = page.locator('.conversation .message.system details');
      expect(await system.locator('summary').textContent()).toBe('System prompt');
      expect(await system.locator('pre').textContent()).toBe('You explore the code base.');
      expect(await page.locator('.conversation .tool-output').allTextContents()).toEqual([
        'auth: found in src/auth.ts',
        'login: found in src/login.ts',
      ]);
      await page.screenshot({ path: join(artifacts, 'debugger-trace.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('shows the run tree (session → runs → tasks, queued ones with their place) and the lanes against the limit', async () => {
    const { page, errors } = await inspector.open(1280);
    try {
      // The step at which the second background task waits in the queue (limit 1).
      const queuedAt = inspector.model.frames.findIndex(
        (frame) =>
          frame.event?.type === 'task.submitted' &&
          (frame.event.task as { taskId: string }).taskId === run.taskIds[2],
      );
      await goTo(page, queuedAt);
      expect(await page.locator('[data-queued]').allTextContents()).toEqual([
        expect.stringContaining(run.taskIds[2]!),
      ]);
      expect(await page.locator('[data-queued] .actor-facts').textContent()).toBe('queued #1');
      // Tasks sit under the main-agent run that started them, under the session.
      const nested = await page
        .locator('li[data-kind="session"] li[data-kind="run"] li[data-kind="task"] .actor-name')
        .allTextContents();
      expect(nested).toEqual(expect.arrayContaining([`explore · ${run.taskIds[0]}`]));
      expect(await page.getByTestId('concurrency').textContent()).toMatch(/limit 1 at a time \(peak 1\)/);
      await page.screenshot({ path: join(artifacts, 'debugger-run-tree.png'), fullPage: true });
      // A lane opens its actor.
      await page.locator(`[data-lane]`, { hasText: run.taskIds[1]! }).click();
      await expect
        .poll(() => page.locator('.actor.selected .actor-name').textContent())
        .toContain(run.taskIds[1]!);
      // Event targets are named at every step, times are relative to the run's start.
      await page.getByTestId('first').click();
      const targets = await page.locator('.event-target').allTextContents();
      expect(targets.filter((name) => /^x:\d+$/.test(name))).toEqual([]);
      // The effects' own xstate.init events are not listed, and the step counter is the one count.
      expect(targets.filter((name) => ['model', 'tool', 'deadline', 'approval'].includes(name))).toEqual([]);
      expect(await page.locator('.event-log h2').textContent()).toBe('Events');
      expect(await page.locator('.event-log time').first().textContent()).toMatch(/^\+\d+\.\d{3} s$/);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 60_000);

  it("shows a task's system prompt, collapsed, when it replays from the app's own store", async () => {
    const page = await inspector.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    try {
      await page.goto(`${inspector.relay.url}/?pace=0.4#/`);
      await page.waitForSelector('body[data-ready="demo"]');
      await page.getByRole('button', { name: 'Run the demo' }).click();
      const auth = page.locator('.board li', { hasText: 'Find the auth code' });
      await expect.poll(() => auth.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
      await page.evaluate("location.hash = '#/inspector'");
      const option = page.getByTestId('task-select').locator('option', { hasText: 'Find the auth code' });
      await expect.poll(() => option.count(), { timeout: 10_000 }).toBe(1);
      await page.getByTestId('task-select').selectOption((await option.getAttribute('value'))!);
      await expect
        .poll(() => page.getByTestId('source-status').textContent(), { timeout: 15_000 })
        .toMatch(/reproduced exactly/);
      await page.getByTestId('last').click();
      // Times from the run's start (the replay's first records carry no time), the task by its id.
      const taskId = await page.getByTestId('task-select').inputValue();
      expect(await page.getByTestId('step-time').textContent()).toMatch(/^\+\d{1,2}\.\d{3} s$/);
      for (const time of await page.locator('.event-log time').allTextContents())
        expect(time).toMatch(/^\+\d{1,2}\.\d{3} s$/);
      expect(await page.locator('.actor .actor-name').allTextContents()).toEqual([`explore · ${taskId}`]);
      const system = page.locator('.conversation .message.system details');
      expect(await system.getAttribute('open')).toBeNull();
      expect(await system.locator('summary').textContent()).toBe('System prompt');
      expect((await system.locator('pre').textContent())?.length).toBeGreaterThan(20);
      expect(await page.locator('.conversation .message[data-index]').count()).toBeGreaterThan(1);
      await page.screenshot({ path: join(artifacts, 'debugger-store-replay.png'), fullPage: true });

      // Fork from step 3 (after the first tool result: the second model call), the assistant's
      // message edited. The step is the CLI's: `troupe replay ID --fork-at 3`.
      await page.getByTestId('first').click();
      for (let step = 0; step < 3; step++) await page.getByTestId('forward').click();
      expect(await page.getByTestId('step').textContent()).toMatch(/^step 3 \/ \d+$/);
      expect(await page.getByTestId('state-value').textContent()).toBe('running.thinking');
      const seen = await page.locator('.conversation .message[data-index]').allTextContents();
      const fork = page.getByTestId('fork');
      expect(await fork.locator('summary').textContent()).toBe('Fork from here (step 3)');
      await fork.locator('summary').click();
      expect(await fork.textContent()).toContain(`troupe replay ${taskId} --fork-at 3`);
      const edited = 'I will grep first, then read the file.';
      await page.getByTestId('fork-message').fill(edited);
      await page.screenshot({ path: join(artifacts, 'debugger-fork.png'), fullPage: true });
      await page.getByTestId('fork-start').click();
      await expect
        .poll(() => page.getByTestId('source-status').textContent(), { timeout: 15_000 })
        .toMatch(/^Forked \S+ at step 3 \(message edited\) → new task \S+\.$/);
      const forkId = /new task (\S+)\.$/.exec((await page.getByTestId('source-status').textContent())!)![1]!;
      expect(forkId).not.toBe(taskId);
      // The fork runs live in the app; once done, its replay at step 3 shows what its first model
      // call was asked: the original's conversation at step 3, with the edit.
      await page.evaluate("location.hash = '#/'");
      const row = page.locator(`.board li[data-task="${forkId}"]`);
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('completed');
      // The fork's page names the task and step it came from.
      await page.evaluate(`location.hash = '#/tasks/${forkId}'`);
      await expect
        .poll(() => page.getByTestId('forked-from').textContent(), { timeout: 10_000 })
        .toBe(`Forked from ${taskId} at its step 3 (replay it).`);
      await page.screenshot({ path: join(artifacts, 'fork-task-page.png'), fullPage: true });
      await page.evaluate(`location.hash = '#/inspector?task=${forkId}'`);
      await expect
        .poll(() => page.getByTestId('source-status').textContent(), { timeout: 15_000 })
        .toMatch(new RegExp(`reproduced exactly \\(6 steps\\)\\. A fork of ${taskId} from its step 3\\.$`));
      await page.getByTestId('first').click();
      for (let step = 0; step < 3; step++) await page.getByTestId('forward').click();
      await page.locator('.actor', { hasText: forkId }).click();
      const asked = await page.locator('.conversation .message[data-index]').allTextContents();
      expect(asked).toHaveLength(seen.length);
      expect([asked[0], asked[2]]).toEqual([seen[0], seen[2]]);
      // The demo's tool turn has no text: the edit adds it before the tool call.
      expect(seen[1]).toMatch(/^AssistantTool call grep/);
      expect(asked[1]).toBe(seen[1]!.replace(/^Assistant/, `Assistant${edited}`));
      await page.getByTestId('last').click();
      expect(await page.getByTestId('state-value').textContent()).toBe('completed');
      await page.screenshot({ path: join(artifacts, 'debugger-fork-replayed.png'), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 90_000);

  it('has no serious or critical accessibility violation (axe-core), empty and loaded', async () => {
    const page = await inspector.browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(`${inspector.relay.url}/#/inspector`);
      await page.waitForSelector('.empty');
      await expectAccessible(page, 'empty');
      await page.getByTestId('timeline-file').setInputFiles(inspector.file);
      await page.getByTestId('last').click();
      await page.locator('.actor', { hasText: run.taskIds[0]! }).click();
      await expectAccessible(page, 'loaded');
    } finally {
      await page.close();
    }
  }, 60_000);
});
