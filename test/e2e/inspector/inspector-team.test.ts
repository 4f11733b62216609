// An agent team in the inspector, in real headless Chromium: a recorded team run (core's scripted
// team job: a lead and three teammates, task dependencies, a broadcast, plan approval) replayed from
// its store into a timeline file and opened in the page. Checks the lanes (one per member, each
// spell), a message's arrow from its sender's lane to its receiver's, the message's text and ids,
// the task board at two steps, a spell opening its task, keyboard use, 1280 and 390 px, axe-core.
// Screenshots go to test/e2e/inspector/artifacts/ (look at them).
import { join } from 'node:path';
import { replayTeamTimeline, type TeamTrack, teamTracks } from '@troupe/inspect';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { recordTeamJob } from '../../../packages/inspect/test/team-fixture.js';
import { expectAccessible } from '../accessibility.js';
import { artifacts, useInspector } from './inspector-browser.js';

let track: TeamTrack;
const inspector = useInspector({
  prefix: 'troupe-team-inspector-',
  fileName: 'team.timeline.jsonl',
  record: async () => {
    const { store, teamId } = await recordTeamJob();
    const { timeline, outcome } = await replayTeamTimeline(store, teamId);
    expect(outcome.matches).toBe(true);
    track = teamTracks(timeline)[0]!;
    return timeline;
  },
  timeoutMs: 180_000,
});

/** Moves the slider to a step (as a drag does: an input event). */
async function goTo(page: Page, index: number) {
  // A string, run in the page (the tests are typed without the DOM library).
  await page.evaluate(`(() => {
    const slider = document.querySelector('[data-testid="slider"]');
    slider.value = '${index}';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  })()`);
  await inspector.expectStep(page, index);
}

/** The board's cards per column: `#id subject · owner · blocked by`. */
async function board(page: Page): Promise<Record<string, string[]>> {
  const columns: Record<string, string[]> = {};
  for (const column of ['pending', 'in_progress', 'completed'])
    columns[column] = (
      await page.locator(`[data-testid="team-board"] [data-column="${column}"] .team-card`).allInnerTexts()
    ).map((text) => text.split('\n').join(' · '));
  return columns;
}

/** The first step after a team event (a team event makes no step of its own). */
const stepAfter = (matches: (change: TeamTrack['changes'][number]) => boolean) => {
  const change = track.changes.find(matches)!;
  return inspector.model.frames.find((frame) => frame.recordIndex > change.recordIndex)!.index;
};

describe('an agent team in the inspector, in Chromium', () => {
  it('shows the members as lanes, messages as arrows, the board at a step; keyboard-usable, axe-clean, at 1280 and 390 px', async () => {
    const { page, errors } = await inspector.open(1280);
    try {
      const team = page.getByTestId('team');
      await expect.poll(() => team.isVisible()).toBe(true);
      // Lanes: one row per member, lead first; every spell a bar on its member's lane.
      const chart = page.getByTestId('team-chart');
      expect(await chart.locator('[data-row]').allTextContents()).toEqual(['lead', 'alice', 'bob', 'carol']);
      expect(await chart.locator('[data-spell]').count()).toBe(track.spells.length);
      expect(await chart.locator('g[data-message]').count()).toBe(track.messages.length);
      const rowY = async (name: string) =>
        Number(await chart.locator(`[data-row="${name}"]`).getAttribute('y')) - 4;
      for (const spell of track.spells) {
        const bar = chart.locator(`[data-spell="${spell.taskId}"]`);
        const y = Number(await bar.getAttribute('y')) + 8;
        expect(y, spell.taskId).toBe(await rowY(spell.member));
      }
      // Step 0: the lead's first spell has just started; no task, no message yet.
      expect(await page.getByTestId('team-summary').textContent()).toContain(
        `0 of ${track.messages.length} messages sent`,
      );
      expect(await board(page)).toEqual({ pending: [], in_progress: [], completed: [] });

      // The board after alice claimed #1: #1 in progress (alice), #2 and #3 pending, blocked.
      await goTo(
        page,
        stepAfter(
          (change) => change.event.type === 'team.task.updated' && change.event.task.owner === 'alice',
        ),
      );
      expect(await board(page)).toEqual({
        pending: ['#2 Draft · no owner · blocked by #1', '#3 Write · no owner · blocked by #2'],
        in_progress: ['#1 Research · owner: alice'],
        completed: [],
      });
      // The broadcast has been sent: three arrows from the lead, one to each teammate.
      const broadcast = track.messages.filter((message) => message.kind === 'broadcast');
      expect(broadcast.map((message) => message.to)).toEqual(['alice', 'bob', 'carol']);
      for (const message of broadcast) {
        const line = chart.locator(`g[data-message="${message.id}"] .team-arrow-hit`);
        expect(Number(await line.getAttribute('y1'))).toBe(await rowY('lead'));
        expect(Number(await line.getAttribute('y2'))).toBe(await rowY(message.to));
        expect(await chart.locator(`g[data-message="${message.id}"]`).getAttribute('class')).toContain(
          'delivered',
        );
      }
      // A later message is faint: alice's "#1 done" to bob is not sent yet.
      const done = track.messages.find((message) => message.text === '#1 done')!;
      expect(await chart.locator(`g[data-message="${done.id}"]`).getAttribute('class')).toContain('future');

      // Click its arrow: its text, kind, ids and where it went.
      await chart.locator(`g[data-message="${done.id}"] .team-arrow-hit`).click({ force: true });
      const detail = page.getByTestId('team-message');
      await expect.poll(() => detail.textContent()).toContain(`${done.id}: alice → bob`);
      const text = (await detail.textContent())!;
      expect(text).toContain('#1 done');
      expect(text).toContain(`woke ${done.spell}`);
      const line = chart.locator(`g[data-message="${done.id}"] .team-arrow-hit`);
      expect(Number(await line.getAttribute('y1'))).toBe(await rowY('alice'));
      expect(Number(await line.getAttribute('y2'))).toBe(await rowY('bob'));
      expect(Number(await line.getAttribute('x2'))).toBeGreaterThanOrEqual(
        Number(await line.getAttribute('x1')),
      );
      await team.screenshot({ path: join(artifacts, 'team-1280-claim.png') });

      // Keyboard: the message list's buttons select a message; the detail steps to when it was sent.
      const first = page.locator('.team-messages button[data-message="m1"]');
      await first.focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => detail.textContent()).toContain('broadcast (m1, m2, m3)');
      expect(await detail.textContent()).toContain('Tasks are ready: alice #1, bob #2, carol #3.');
      expect(await detail.textContent()).toContain('tasks ready');
      await detail.getByRole('button', { name: 'Step to when it was sent' }).focus();
      await page.keyboard.press('Enter');
      const sentStep = inspector.model.frames.find(
        (frame) => frame.recordIndex >= track.messages[0]!.sentRecord,
      )!.index;
      await inspector.expectStep(page, sentStep);

      // The board at the last step: every task completed by its owner.
      await page.getByTestId('last').click();
      expect(await board(page)).toEqual({
        pending: [],
        in_progress: [],
        completed: [
          '#1 Research · owner: alice',
          '#2 Draft · owner: bob · blocked by #1 ✓',
          '#3 Write · owner: carol · blocked by #2 ✓',
        ],
      });
      expect(await page.getByTestId('team-summary').textContent()).toContain('ended completed (GOAL)');

      // A spell opens its task in the chart and the trace (the existing views).
      const spell = track.spells.find((candidate) => candidate.member === 'bob' && candidate.n === 2)!;
      await page.getByRole('button', { name: new RegExp(`bob's spell 2 \\(${spell.taskId}\\)`) }).click();
      await expect.poll(() => page.locator('.actor.selected').textContent()).toContain(spell.taskId);
      expect(await chart.locator(`[data-spell="${spell.taskId}"]`).getAttribute('class')).toContain(
        'selected',
      );
      await page.screenshot({ path: join(artifacts, 'team-1280-end.png'), fullPage: true });
      await team.screenshot({ path: join(artifacts, 'team-1280-end-team.png') });
      await expectAccessible(page, 'a team, a message selected');
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }

    // 390 px: the same view, nothing wider than the screen.
    const narrow = await inspector.open(390);
    try {
      await goTo(
        narrow.page,
        stepAfter((change) => change.event.type === 'team.task.updated' && change.event.task.owner === 'bob'),
      );
      await narrow.page.locator('.team-messages button[data-message="m4"]').click();
      expect(await board(narrow.page)).toMatchObject({
        in_progress: ['#2 Draft · owner: bob · blocked by #1 ✓'],
      });
      expect(
        await narrow.page.evaluate(
          'document.documentElement.scrollWidth <= document.documentElement.clientWidth',
        ),
      ).toBe(true);
      const box = (await narrow.page.getByTestId('team-chart').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      await narrow.page.screenshot({ path: join(artifacts, 'team-390.png'), fullPage: true });
      await narrow.page.getByTestId('team').screenshot({ path: join(artifacts, 'team-390-team.png') });
      await expectAccessible(narrow.page, 'a team at 390 px');
      expect(narrow.errors).toEqual([]);
    } finally {
      await narrow.page.close();
    }
  }, 120_000);
});
