import { subagentMachine } from '@troupe/core/internal';
import { describe, expect, it } from 'vitest';
import { layoutChart } from '../src/chart/layout-chart.js';
import { scenarios } from './fixtures.js';

describe('layoutChart', () => {
  it('lays out the subagent machine from the definition the recorder wrote: every state, every transition, no overlap', async () => {
    const run = await scenarios.goal!();
    const definition = run.timeline.records.find(
      (record) => record.type === 'troupe.definition' && JSON.parse(record.definition).id === 'subagent',
    );
    if (definition?.type !== 'troupe.definition') throw new Error('no subagent definition recorded');
    const chart = layoutChart(definition.definition);
    const paths = chart.nodes.map((node) => node.path).sort();
    const expected = Object.keys(subagentMachine.config.states ?? {}).flatMap((key) => [
      key,
      ...Object.keys((subagentMachine.config.states as any)[key].states ?? {}).map(
        (child) => `${key}.${child}`,
      ),
    ]);
    expect(paths).toEqual(expected.sort());
    const running = chart.nodes.find((node) => node.path === 'running')!;
    expect(running.compound).toBe(true);
    for (const child of chart.nodes.filter((node) => node.parent === running.id)) {
      expect(child.x).toBeGreaterThanOrEqual(running.x);
      expect(child.y).toBeGreaterThanOrEqual(running.y);
      expect(child.x + child.width).toBeLessThanOrEqual(running.x + running.width + 0.5);
      expect(child.y + child.height).toBeLessThanOrEqual(running.y + running.height + 0.5);
    }
    const leaves = chart.nodes.filter((node) => !node.compound);
    for (const a of leaves)
      for (const b of leaves) {
        if (a === b) continue;
        const apart =
          a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
        expect(apart, `${a.path} overlaps ${b.path}`).toBe(true);
      }
    expect(chart.edges.map((edge) => edge.label)).toEqual(
      expect.arrayContaining(['task.started', expect.stringMatching(/^cancel\.requested/)]),
    );
    expect(chart.edges.every((edge) => edge.points.length >= 2)).toBe(true);
    expect(
      chart.nodes
        .filter((node) => node.final)
        .map((node) => node.path)
        .sort(),
    ).toEqual(['cancelled', 'completed', 'failed']);
  });

  it('refuses a definition that is not JSON', () => {
    expect(() => layoutChart('{nope')).toThrow();
  });
});
