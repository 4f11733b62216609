import { withPatternEngine } from '@troupe/core';
import { agentLabel } from '../app/agent-colors.js';
import { type AgentCheck, checkAgentFile } from '../app/agent-problems.js';
import { builtInAgents, deleteUserAgent, loadUserAgentFiles, saveUserAgent } from '../app/agents.js';
import type { AppContext } from '../app/app-context.js';
import { h } from '../app/dom.js';

const TEMPLATE = `---
name: my-agent
description: What this agent is for, and when to use it.
tools: read, grep, glob
maxTurns: 8
---

You are ...
`;

/**
 * The agents: built-in ones listed with their whole descriptions, the user's own edited as
 * Markdown and checked as typed (every problem at once, errors apart from warnings), saved to
 * IndexedDB, deleted after a confirmation.
 */
export function mountAgentsPage(element: HTMLElement, app: AppContext): () => void {
  const builtIns = builtInAgents();
  const knownTools = [...app.toolNames, ...app.runtime.mainTools().map((tool) => tool.name)];
  const context = { knownTools, builtIns: builtIns.map((agent) => agent.name) };
  const editor = h('textarea', {
    name: 'agent',
    rows: 14,
    spellcheck: 'false',
    value: TEMPLATE,
    'aria-label': 'agent file (Markdown with front matter)',
  });
  const report = h('ul', { class: 'problems', 'aria-label': 'problems', 'aria-live': 'polite' });
  const status = h('p', { class: 'muted', role: 'status' });
  const mine = h('ul', { class: 'agents-mine', 'aria-label': 'your agents' });
  const show = (found: AgentCheck) => {
    report.replaceChildren(
      ...found.problems.map((problem) =>
        h(
          'li',
          { class: `problem-${problem.severity}`, dataset: { severity: problem.severity } },
          `${problem.severity === 'error' ? 'Error' : 'Warning'}${problem.line ? `, line ${problem.line}` : ''}: ${problem.message}`,
        ),
      ),
    );
    const errors = found.problems.filter((problem) => problem.severity === 'error').length;
    const warnings = found.problems.length - errors;
    status.textContent = found.definition
      ? `Valid: ${found.definition.name}${warnings ? ` (${warnings} warning${warnings === 1 ? '' : 's'})` : ''}`
      : `Not valid yet: ${errors} error${errors === 1 ? '' : 's'}${warnings ? `, ${warnings} warning${warnings === 1 ? '' : 's'}` : ''}.`;
  };
  // Checks what the editor holds and shows it, unless a later edit's check started meanwhile. A
  // schema with a `pattern` loads the pattern engine (a chunk of its own) on the first such check.
  let checks = 0;
  const validate = async (text = editor.value): Promise<AgentCheck> => {
    const run = ++checks;
    const found = await withPatternEngine(() => checkAgentFile(text, context));
    if (run === checks) show(found);
    return found;
  };
  const refresh = async () => {
    const files = await loadUserAgentFiles();
    mine.replaceChildren(
      ...[...files].map(([name, text]) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              onclick: () => {
                editor.value = text;
                void validate();
              },
            },
            // The colour the runtime has for it (registered when the page loaded; a new one after a reload).
            agentLabel(name, app.runtime.agents.get(name)?.color, name),
          ),
          context.builtIns.includes(name) && h('span', { class: 'muted' }, ' (replaces the built-in agent) '),
          h(
            'button',
            {
              type: 'button',
              class: 'danger',
              'aria-label': `Delete ${name}`,
              onclick: async () => {
                if (!confirm(`Delete your agent "${name}"? This cannot be undone.`)) return;
                await deleteUserAgent(name);
                status.textContent = `Deleted ${name}; the main agent stops offering it after a reload.`;
                await refresh();
              },
            },
            'Delete',
          ),
        ),
      ),
    );
    if (files.size === 0) mine.replaceChildren(h('li', { class: 'muted' }, 'None yet: write one below.'));
  };
  editor.addEventListener('input', () => void validate());
  const save = h(
    'button',
    {
      type: 'button',
      onclick: async () => {
        const text = editor.value;
        const found = await validate(text);
        if (!found.definition) {
          status.textContent = 'Not saved: fix the errors listed below first.';
          return;
        }
        const name = found.definition.name;
        try {
          await saveUserAgent(name, text);
          status.textContent = context.builtIns.includes(name)
            ? `Saved ${name}: it replaces the built-in agent of that name after a reload.`
            : `Saved ${name}; it is offered to the main agent after a reload.`;
        } catch (error) {
          status.textContent = `Not saved: ${(error as Error).message}`;
        }
        await refresh();
      },
    },
    'Save agent',
  );
  element.append(
    h('h2', {}, 'Built-in agents'),
    h(
      'ul',
      { class: 'agents-builtin' },
      ...builtIns.map((agent) =>
        h(
          'li',
          {},
          h('strong', {}, agentLabel(agent.name, agent.color, agent.name)),
          ` — ${agent.description}`,
        ),
      ),
    ),
    h('h2', {}, 'Your agents'),
    mine,
    h('h2', {}, 'Write an agent'),
    editor,
    status,
    report,
    save,
  );
  void validate();
  void refresh();
  return () => {};
}
