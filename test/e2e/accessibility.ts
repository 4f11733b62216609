import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** Runs axe-core on the page: no serious or critical violation. `name` says which page in a failure. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await page.addScriptTag({ path: axePath });
  const violations = (await page.evaluate('axe.run(document).then((result) => result.violations)')) as {
    id: string;
    impact: string;
    nodes: { target: string[] }[];
  }[];
  const bad = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  expect(bad, name).toEqual([]);
}
