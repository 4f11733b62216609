import { describe, expect, it } from 'vitest';
import { AGENT_COLORS, agentColorOf } from '../src/app/agent-colors.js';

describe("an agent's color in the web app", () => {
  it("names Claude Code's eight colours, the CLI's ANSI names for them, and #rrggbb", () => {
    for (const name of ['red', 'blue', 'green', 'yellow', 'purple', 'orange', 'pink', 'cyan'])
      expect(agentColorOf(name)).toEqual({ name });
    expect(AGENT_COLORS).toContain('gray');
    expect(agentColorOf(' Purple ')).toEqual({ name: 'purple' });
    expect(agentColorOf('magenta')).toEqual({ name: 'purple' });
    expect(agentColorOf('teal')).toEqual({ name: 'cyan' });
    expect(agentColorOf('#1D4ED8')).toEqual({ hex: '#1d4ed8' });
  });

  it('shows nothing for an unset or unknown colour, or one that is not a plain #rrggbb', () => {
    for (const value of [undefined, '', 'chartreuse', '#fff', 'red; background: url(x)', '#12345g'])
      expect(agentColorOf(value)).toBeUndefined();
  });
});
