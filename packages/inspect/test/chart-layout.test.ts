import { subagentMachine, supervisorMachine } from '@troupe/core/internal';
import { describe, expect, it } from 'vitest';
import { layoutChart, layoutChartToFit } from '../src/chart/layout-chart.js';
import { createRedactor } from '../src/wire/redact.js';
import { toJsonValue } from '../src/wire/to-json-value.js';
import { scenarios } from './fixtures.js';

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlap = (a: Omit<Box, 'name'>, b: Omit<Box, 'name'>) =>
  a.x < b.x + b.width - 0.5 &&
  b.x < a.x + a.width - 0.5 &&
  a.y < b.y + b.height - 0.5 &&
  b.y < a.y + a.height - 0.5;

/** The definitions as the recorder writes them: each machine's config through `toJsonValue`. */
const definition = (config: object) => JSON.stringify(toJsonValue(config, createRedactor()));

// The session machine is the supervisor's `session` actor.
const sessionMachine = (supervisorMachine.implementations.actors as Record<string, { config: object }>)
  .session!;

const machines = {
  subagent: subagentMachine.config,
  supervisor: supervisorMachine.config,
  session: sessionMachine.config,
};

describe('the chart layout', () => {
  for (const [name, config] of Object.entries(machines))
    for (const direction of ['TB', 'LR'] as const)
      it(`${name} (${direction}): every state inside the chart and inside its parent; no label over another label or a state`, () => {
        const chart = layoutChart(definition(config), { direction });
        const byId = new Map(chart.nodes.map((node) => [node.id, node]));
        for (const node of chart.nodes) {
          expect(node.x, node.path).toBeGreaterThanOrEqual(0);
          expect(node.y, node.path).toBeGreaterThanOrEqual(0);
          expect(node.x + node.width, node.path).toBeLessThanOrEqual(chart.width);
          expect(node.y + node.height, node.path).toBeLessThanOrEqual(chart.height);
          const parent = node.parent ? byId.get(node.parent) : undefined;
          if (parent) {
            expect(node.x, `${node.path} in its parent`).toBeGreaterThanOrEqual(parent.x);
            expect(node.y, `${node.path} in its parent`).toBeGreaterThan(parent.y);
            expect(node.x + node.width).toBeLessThanOrEqual(parent.x + parent.width);
            expect(node.y + node.height).toBeLessThanOrEqual(parent.y + parent.height);
          }
        }
        // Siblings never overlap; an edge label overlaps no state except the compound it lies in.
        for (const a of chart.nodes)
          for (const b of chart.nodes)
            if (a !== b && a.parent === b.parent)
              expect(overlap(a, b), `${a.path} overlaps ${b.path}`).toBe(false);
        const labels: Box[] = chart.edges.map((edge) => ({
          name: edge.label,
          x: edge.labelX - edge.labelWidth / 2,
          y: edge.labelY - edge.labelHeight / 2,
          width: edge.labelWidth,
          height: edge.labelHeight,
        }));
        for (const [index, label] of labels.entries()) {
          for (const other of labels.slice(index + 1))
            expect(overlap(label, other), `"${label.name}" overlaps "${other.name}"`).toBe(false);
          for (const node of chart.nodes) {
            const inside =
              node.compound &&
              label.x >= node.x &&
              label.y >= node.y &&
              label.x + label.width <= node.x + node.width &&
              label.y + label.height <= node.y + node.height;
            if (!inside) expect(overlap(label, node), `"${label.name}" over ${node.path}`).toBe(false);
          }
        }
      });

  it('draws every compound state with its children, and a transition that stays in a state inside it', () => {
    const chart = layoutChart(definition(machines.subagent));
    const running = chart.nodes.find((node) => node.path === 'running')!;
    expect(running.compound).toBe(true);
    expect(chart.nodes.filter((node) => node.parent === running.id).map((node) => node.label)).toEqual([
      'thinking',
      'acting',
      'awaitingApproval',
      'grace',
    ]);
    const acting = chart.nodes.find((node) => node.path === 'running.acting')!;
    expect(acting.rows.map((row) => row.text)).toContain('tool.started');
    // An answered call that is not the turn's last re-enters `acting` (its tool effect starts anew).
    const drawn = [...acting.rows.map((row) => row.text), ...chart.edges.map((edge) => edge.label)];
    expect(drawn.some((text) => text.includes('tool.finished [isNextCall]'))).toBe(true);
    // A transition from inside `running` to `failed` is drawn from `running`, naming its source.
    const failed = chart.edges.find((edge) => edge.source === running.id && edge.target.endsWith('.failed'))!;
    expect(failed.label).toContain('grace › deadline.passed [deadlineReached]');
  });

  it('names combined guards from the guards they combine, the same when the functions are minified', async () => {
    const run = await scenarios.goal!();
    const recorded = run.timeline.records.find(
      (record) => record.type === 'troupe.definition' && JSON.parse(record.definition).id === 'subagent',
    );
    if (recorded?.type !== 'troupe.definition') throw new Error('no subagent definition recorded');
    const chart = layoutChart(recorded.definition);
    const thinking = chart.nodes.find((node) => node.path === 'running.thinking')!;
    expect(thinking.rows.map((row) => row.text)).toContain('model.responded [not(isCurrentTurn)]');
    const texts = chart.edges.flatMap((edge) => edge.lines.map((line) => line.text));
    expect(texts).toContain('acting › always [and(allCallsAnswered, overTokenBudget)]');

    // A production build renames functions; the names must not change.
    const guards = (subagentMachine.config.states as any).running.states.thinking.on['model.responded'];
    const combined = guards[0].guard as { name: string };
    const original = Object.getOwnPropertyDescriptor(combined, 'name')!;
    Object.defineProperty(combined, 'name', { value: 't' });
    try {
      expect(combined.name).toBe('t');
      expect(JSON.stringify(toJsonValue(subagentMachine.config, createRedactor()))).toContain(
        '"not(isCurrentTurn)"',
      );
    } finally {
      Object.defineProperty(combined, 'name', original);
    }
  });

  it('picks the direction whose fitted chart is the larger', () => {
    const wide = layoutChartToFit(definition(machines.session), 400, 100);
    expect(wide.direction).toBe('LR');
    const tall = layoutChartToFit(definition(machines.session), 200, 800);
    expect(tall.direction).toBe('TB');
  });
});
