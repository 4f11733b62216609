import { parseAgentFile } from '@troupe/core';
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

/** Problems of an agent file as the parser reports them, each with its line when known. */
function problems(text: string): { name?: string; lines: string[] } {
  try {
    const { definition, warnings } = parseAgentFile(text, { path: 'agent.md' });
    return {
      name: definition.name,
      lines: warnings.map((warning) => `line ${warning.line ?? '?'}: ${warning.message}`),
    };
  } catch (error) {
    const line = (error as { line?: number }).line;
    return { lines: [`${line ? `line ${line}: ` : ''}${(error as Error).message}`] };
  }
}

/** The agents: built-in ones listed, the user's own edited as Markdown, validated as typed. */
export function mountAgentsPage(element: HTMLElement, _app: AppContext): () => void {
  const editor = h('textarea', { name: 'agent', rows: 14, spellcheck: 'false', value: TEMPLATE });
  const report = h('ul', { class: 'problems', 'aria-label': 'problems' });
  const status = h('p', { class: 'muted' });
  const mine = h('ul', { class: 'agents-mine' });
  const validate = () => {
    const found = problems(editor.value);
    report.replaceChildren(...found.lines.map((line) => h('li', {}, line)));
    status.textContent = found.name
      ? `Valid: ${found.name}${found.lines.length ? ' (with warnings)' : ''}`
      : 'Not valid yet.';
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
              class: 'link',
              onclick: () => {
                editor.value = text;
                validate();
              },
            },
            name,
          ),
          h(
            'button',
            {
              class: 'danger',
              onclick: async () => {
                await deleteUserAgent(name);
                await refresh();
              },
            },
            'Delete',
          ),
        ),
      ),
    );
  };
  editor.addEventListener('input', validate);
  const save = h(
    'button',
    {
      onclick: async () => {
        const found = validate();
        if (!found.name) return;
        await saveUserAgent(found.name, editor.value);
        status.textContent = `Saved ${found.name}; it is offered to the main agent after a reload.`;
        await refresh();
      },
    },
    'Save agent',
  );
  element.append(
    h('h2', {}, 'Built-in agents'),
    h(
      'ul',
      {},
      ...builtInAgents().map((agent) =>
        h('li', {}, h('strong', {}, agent.name), ` — ${agent.description.slice(0, 140)}`),
      ),
    ),
    h('h2', {}, 'Your agents'),
    mine,
    editor,
    status,
    report,
    save,
  );
  validate();
  void refresh();
  return () => {};
}
