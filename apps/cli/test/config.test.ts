import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configLimits, loadConfig } from '../src/config.js';
import { CliError } from '../src/errors.js';
import { modelChoice } from '../src/model.js';
import { chooseApproval } from '../src/setup/approval-policy.js';
import { tempDir } from './helpers/cli.js';

function write(dir: string, value: unknown): string {
  mkdirSync(join(dir, '.troupe'), { recursive: true });
  const file = join(dir, '.troupe', 'config.json');
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

describe('config files', () => {
  it('the project file wins over the user file, field by field and limit by limit', async () => {
    const home = tempDir('home');
    const cwd = tempDir('project');
    write(home, { model: 'opus', smallModel: 'haiku', limits: { maxTurns: 5, maxConcurrent: 2 } });
    write(cwd, { model: 'sonnet', limits: { maxTurns: 8 } });
    const { config, files } = await loadConfig({ home, cwd });
    expect(files).toEqual([join(home, '.troupe', 'config.json'), join(cwd, '.troupe', 'config.json')]);
    expect(config).toEqual({
      model: 'sonnet',
      smallModel: 'haiku',
      limits: { maxTurns: 8, maxConcurrent: 2 },
    });
    expect(configLimits(config)).toEqual({ maxTurns: 8, maxConcurrent: 2 });
  });

  it('missing files are fine', async () => {
    expect(await loadConfig({ home: tempDir('home'), cwd: tempDir('project') })).toEqual({
      config: {},
      files: [],
      ignored: [],
    });
  });

  it('an untrusted project cannot widen: its approval auto and agentDirs outside it are ignored, the rest kept', async () => {
    const home = tempDir('home');
    const cwd = tempDir('project');
    mkdirSync(join(cwd, 'agents-here'));
    write(home, { approval: 'deny' });
    const file = write(cwd, {
      approval: 'auto',
      model: 'sonnet',
      agentDirs: ['agents-here', '~/elsewhere', '/etc', '../sibling'],
    });
    const untrusted = await loadConfig({ home, cwd });
    expect(untrusted.config).toEqual({ approval: 'deny', model: 'sonnet', agentDirs: ['agents-here'] });
    expect(untrusted.ignored).toEqual([
      { file, setting: 'approval', value: 'auto' },
      { file, setting: 'agentDirs', value: '~/elsewhere' },
      { file, setting: 'agentDirs', value: '/etc' },
      { file, setting: 'agentDirs', value: '../sibling' },
    ]);
    const trusted = await loadConfig({ home, cwd, trustProject: true });
    expect(trusted.config.approval).toBe('auto');
    expect(trusted.config.agentDirs).toHaveLength(4);
    expect(trusted.ignored).toEqual([]);
    // A narrowing mode from the project is kept without trust.
    write(cwd, { approval: 'ask' });
    expect((await loadConfig({ home, cwd })).config.approval).toBe('ask');
  });

  it('bashPassEnv: the user file passes named variables to bash; an untrusted project cannot', async () => {
    const home = tempDir('home');
    const cwd = tempDir('project');
    write(home, { bashPassEnv: ['JAVA_HOME', 'SSH_AUTH_SOCK'] });
    const file = write(cwd, { bashPassEnv: ['ANTHROPIC_API_KEY'] });
    const untrusted = await loadConfig({ home, cwd });
    expect(untrusted.config.bashPassEnv).toEqual(['JAVA_HOME', 'SSH_AUTH_SOCK']);
    expect(untrusted.ignored).toEqual([{ file, setting: 'bashPassEnv', value: 'ANTHROPIC_API_KEY' }]);
    const trusted = await loadConfig({ home, cwd, trustProject: true });
    expect(trusted.config.bashPassEnv).toEqual(['JAVA_HOME', 'SSH_AUTH_SOCK', 'ANTHROPIC_API_KEY']);
  });

  it.each([
    [
      { modle: 'x' },
      'field "modle" is not a known setting (known: model, smallModel, planModel, thinking, approval, limits, prices, agentDirs, bashPassEnv)',
    ],
    [{ limits: { maxTurns: 1.5 } }, 'field "limits.maxTurns" must be a whole number'],
    [{ limits: { turns: 3 } }, 'field "limits.turns" is not a known limit'],
    [{ limits: [] }, 'field "limits" must be an object'],
    [{ approval: 'yes' }, 'field "approval" must be "ask", "auto" or "deny"'],
    [{ model: 42 }, 'field "model" must be a string'],
    [{ thinking: 500 }, 'field "thinking" must be at least 1024 tokens'],
    [{ bashPassEnv: ['JAVA HOME'] }, 'field "bashPassEnv.0" must be a variable name'],
    [[1, 2], 'it must hold a JSON object'],
    ['{"model": "x",}', 'is not valid JSON'],
  ])('%j is refused, naming the file and the field', async (value, message) => {
    const cwd = tempDir('project');
    const file = write(cwd, value);
    const error = await loadConfig({ home: tempDir('home'), cwd }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(message);
  });

  it('flags win over the config for models; unset ones stay unset', () => {
    const options = {
      help: false,
      version: false,
      debug: false,
      json: false,
      background: false,
      planModel: 'opus',
    };
    expect(modelChoice(options, { model: 'sonnet', planModel: 'haiku' })).toEqual({
      default: 'sonnet',
      plan: 'opus',
    });
  });

  it('approvals: flag, then config, then ask in a terminal and deny (said) elsewhere', () => {
    const options = { help: false, version: false, debug: false, json: false, background: false };
    expect(chooseApproval({ ...options, approval: 'auto' }, { approval: 'deny' }, false)).toEqual({
      mode: 'auto',
    });
    expect(chooseApproval(options, { approval: 'deny' }, true)).toEqual({ mode: 'deny' });
    expect(chooseApproval(options, {}, true)).toEqual({ mode: 'ask' });
    const piped = chooseApproval(options, {}, false);
    expect(piped.mode).toBe('deny');
    expect(piped.notice).toMatch(/^Not a terminal: write and execute tools .* will be denied/);
  });
});
