import { describe, expect, it } from 'vitest';
import { parseApprovalAnswer } from '../src/interactive/approval-desk.js';
import { Prompter } from '../src/interactive/prompter.js';

function host() {
  const shown: string[] = [];
  const prompts: (string | undefined)[] = [];
  return {
    shown,
    prompts,
    host: {
      show: (lines: string[]) => shown.push(...lines),
      setPrompt: (label: string | undefined) => prompts.push(label),
    },
  };
}

describe('Prompter', () => {
  it('asks one question at a time; the next line answers the current one', async () => {
    const { shown, prompts, host: h } = host();
    const prompter = new Prompter(h);
    const first = prompter.ask({ key: 'a', lines: ['First?'], prompt: '1> ' });
    const second = prompter.ask({ key: 'b', lines: ['Second?'], prompt: '2> ' });
    expect(shown).toEqual(['First?']);
    expect(prompter.answer('yes')).toBe(true);
    expect(await first).toBe('yes');
    expect(shown).toEqual(['First?', 'Second?']);
    prompter.answer('no');
    expect(await second).toBe('no');
    expect(prompts).toEqual(['1> ', '2> ', undefined]);
    expect(prompter.answer('stray')).toBe(false);
  });

  it('tells the host which question on screen was withdrawn (not the queued ones), and shows its text', async () => {
    const withdrawn: string[][] = [];
    const prompter = new Prompter({
      show: () => {},
      setPrompt: () => {},
      withdrawn: (lines) => withdrawn.push([...lines]),
    });
    const current = prompter.ask({ key: 'a', lines: ['Run bash?', '  $ ls'], prompt: '> ' });
    void prompter.ask({ key: 'b', lines: ['Write?'], prompt: '> ' });
    expect(prompter.currentLines).toEqual(['Run bash?', '  $ ls']);
    prompter.withdraw((key) => key === 'b');
    expect(withdrawn).toEqual([]);
    prompter.withdraw((key) => key === 'a');
    expect(await current).toBeUndefined();
    expect(withdrawn).toEqual([['Run bash?', '  $ ls']]);
    expect(prompter.currentLines).toEqual([]);
  });

  it('withdraws questions by key (queued or current) and resolves them undefined', async () => {
    const { host: h } = host();
    const prompter = new Prompter(h);
    const current = prompter.ask({ key: 'task-1:use-1', prompt: '> ' });
    const queued = prompter.ask({ key: 'task-2:use-1', prompt: '> ' });
    const kept = prompter.ask({ key: 'task-3:use-1', prompt: '> ' });
    prompter.withdraw((key) => key.startsWith('task-2:'));
    prompter.withdraw((key) => key.startsWith('task-1:'));
    expect(await current).toBeUndefined();
    expect(await queued).toBeUndefined();
    prompter.answer('ok');
    expect(await kept).toBe('ok');
  });
});

describe('approval answers', () => {
  it.each([
    ['y', { decision: 'approve' }],
    [' YES ', { decision: 'approve' }],
    ['a', { decision: 'approve', always: true }],
    ['always', { decision: 'approve', always: true }],
    ['n', { decision: 'deny' }],
    ['no   use the staging db instead', { decision: 'deny', reason: 'use the staging db instead' }],
    ['maybe', undefined],
    ['', undefined],
  ])('%j', (text, expected) => {
    expect(parseApprovalAnswer(text)).toEqual(expected);
  });
});
