import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../src/arguments.js';
import { UsageError } from '../src/errors.js';

describe('parseCommandLine', () => {
  it('a bare troupe is the interactive session, with its flags', () => {
    const line = parseCommandLine(['--model', 'opus', '--approval', 'auto', '--store', 'tasks']);
    expect(line).toMatchObject({
      command: 'interactive',
      args: [],
      options: { model: 'opus', approval: 'auto', store: 'tasks', json: false },
    });
  });

  it('run takes an agent, flags in any position, and the prompt words', () => {
    const line = parseCommandLine(['run', '-a', 'explore', 'find', '--json', 'the auth code']);
    expect(line.command).toBe('run');
    expect(line.args).toEqual(['find', 'the auth code']);
    expect(line.options).toMatchObject({ agent: 'explore', json: true, background: false });
  });

  it.each([
    ['10s', 10_000],
    ['2.5s', 2_500],
    ['2500ms', 2_500],
    ['3000', 3_000],
  ])('worker --dead-after %s is %d ms', (value, ms) => {
    expect(parseCommandLine(['worker', '--dead-after', value]).options.deadAfterMs).toBe(ms);
  });

  it('--trust-project is taken by the commands that read a project; trust takes a folder', () => {
    for (const argv of [
      ['--trust-project'],
      ['run', '--trust-project', 'x'],
      ['mcp', 'list', '--trust-project'],
    ])
      expect(parseCommandLine(argv).options.trustProject).toBe(true);
    expect(parseCommandLine(['run', 'x']).options.trustProject).toBeUndefined();
    expect(parseCommandLine(['trust', 'revoke', '../repo'])).toMatchObject({
      command: 'trust',
      args: ['revoke', '../repo'],
    });
    expect(() => parseCommandLine(['trust', '--trust-project'])).toThrow(
      /troupe trust does not take --trust-project/,
    );
    // A fork (`replay ID --fork-at STEP`) runs the project's agents and tools.
    expect(parseCommandLine(['replay', 'x', '--fork-at', '2', '--trust-project']).options).toMatchObject({
      trustProject: true,
      forkAt: '2',
    });
    expect(() => parseCommandLine(['replay', 'x', '--background'])).toThrow(UsageError);
  });

  it('words after -- are prompt text, even when they look like flags', () => {
    expect(parseCommandLine(['run', '--', '--not-a-flag']).args).toEqual(['--not-a-flag']);
  });

  it.each([
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['--nope'], /Unknown option --nope/],
    [['agents', '--agent', 'x'], /troupe agents does not take --agent/],
    [['--approval', 'sometimes'], /--approval must be ask, auto or deny/],
    [['tasks', 'list', '--limit', '0'], /--limit must be a positive whole number/],
    [['run', '--model'], /--model needs a value/],
    [['run', '--model', ' '], /--model needs a value/],
    [['tasks', 'list', '--limit', '-3'], /--limit must be a positive whole number, not "-3"/],
    [
      ['--thinking', '100'],
      /--thinking must be a number of tokens, at least 1024 \(e\.g\. --thinking 4000\), not "100"/,
    ],
    [['agents', 'list', '--thinking', '2000'], /troupe agents does not take --thinking/],
    [['run', '--jsn', 'x'], /Unknown option --jsn\. Did you mean --json\?/],
    [['--aproval', 'auto'], /Unknown option --aproval\. Did you mean --approval\?/],
    [['worker', '--dead-after', '1s'], /--dead-after must be a duration of at least 2s .*not "1s"/],
    [['worker', '--dead-after', '1999'], /--dead-after must be a duration of at least 2s/],
    [['worker', '--dead-after', 'soon'], /--dead-after must be a duration .*not "soon"/],
    [['worker', '--dead-after', '-5s'], /--dead-after must be a duration .*not "-5s"/],
    [['worker', '--dead-after', '10m'], /--dead-after must be a duration .*not "10m"/],
    [['run', '--dead-after', '10s', 'x'], /troupe run does not take --dead-after/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCommandLine(argv)).toThrow(UsageError);
    expect(() => parseCommandLine(argv)).toThrow(message);
  });
});
