import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateCost, priceOf, type TaskResult } from '@troupe/core';
import { storeRecords } from '@troupe/core/store';
import { createFileStore } from '@troupe/node';
import { describe, expect, it } from 'vitest';
import { configPrices, loadConfig } from '../src/config.js';
import { CliError } from '../src/errors.js';
import { formatDollars } from '../src/render/usage-ledger.js';
import { cleanEnv, tempDir } from './helpers/cli.js';
import { runCliInProcess } from './helpers/cli-in-process.js';

function writeConfig(dir: string, value: unknown): string {
  mkdirSync(join(dir, '.troupe'), { recursive: true });
  const file = join(dir, '.troupe', 'config.json');
  writeFileSync(file, JSON.stringify(value));
  return file;
}

/** Runs the CLI in this process (no colours). */
function troupe(argv: string[], places: { cwd: string; home: string }) {
  return runCliInProcess(argv, { cwd: places.cwd, env: cleanEnv(places.home, { NO_COLOR: '1' }) });
}

describe('the prices setting', () => {
  it('sets prices model by model over the list prices; the project file wins key by key', async () => {
    const home = tempDir('home');
    const cwd = tempDir('project');
    writeConfig(home, { prices: { sonnet: { input: 2, output: 10 }, 'my-model': { input: 1, output: 2 } } });
    writeConfig(cwd, { prices: { sonnet: { input: 2.5, output: 12, cacheRead: 0.2 } } });
    const { config } = await loadConfig({ home, cwd });
    const prices = configPrices(config);
    expect(priceOf('claude-sonnet-4-5', prices)).toEqual({
      input: 2.5,
      output: 12,
      cacheRead: 0.2,
      cacheWrite: 3.125,
      cacheWrite1h: 5,
    });
    expect(priceOf('my-model-v2', prices)).toMatchObject({ input: 1, output: 2 });
    expect(priceOf('claude-haiku-4-5', prices)).toEqual(priceOf('claude-haiku-4-5'));
    expect(configPrices({})).toBe(configPrices({}));
  });

  it('refuses a bad price, naming the file and the field', async () => {
    const cwd = tempDir('project');
    const file = writeConfig(cwd, { prices: { sonnet: { input: -1, output: 10 } } });
    const error = await loadConfig({ home: tempDir('home'), cwd }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toBe(
      `The config file ${file} is invalid: field "prices.sonnet.input" must not be negative.`,
    );
    writeConfig(cwd, { prices: { sonnet: { input: 1, output: 10, cached: 1 } } });
    await expect(loadConfig({ home: tempDir('home'), cwd })).rejects.toThrow(
      /field "prices\.sonnet\.cached" is not a known price \(known: input, output, cacheRead, cacheWrite, cacheWrite1h\)/,
    );
  });

  it('troupe tasks show prices each model of a task at the configured prices; tasks list leaves main-agent runs out', async () => {
    const home = tempDir('home');
    const cwd = tempDir('project');
    const dir = tempDir('store');
    writeConfig(cwd, { prices: { opus: { input: 10, output: 50 } } });
    const store = createFileStore({ dir });
    const result: TaskResult = {
      ...storeRecords.resultOf('t_switched'),
      model: 'claude-haiku-4-5',
      usage: { input: 3000, output: 300, total: 3300 },
      usageByModel: {
        'claude-opus-4-5': { input: 1000, output: 100 },
        'claude-haiku-4-5': { input: 2000, output: 200 },
      },
    };
    store.appendStatus(storeRecords.queuedRecord('t_switched'));
    store.saveResult({ v: 2, result });
    store.appendStatus({ ...storeRecords.finishedRecord('t_switched'), result });
    store.appendStatus(storeRecords.queuedRecord('t_main', 1_500, { agent: 'main', depth: 0 }));
    store.appendStatus(storeRecords.finishedRecord('t_main', 2_500));
    await store.close();

    const shown = await troupe(['tasks', 'show', 't_switched', '--store', dir], { cwd, home });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('  claude-opus-4-5: input 1k (cache read 0, cache write 0) · output 100');
    expect(shown.stdout).toContain('  claude-haiku-4-5: input 2k (cache read 0, cache write 0) · output 200');
    // opus at the configured $10/$50 (15k micro-dollars), haiku at list prices: $0.018 in all.
    const expected =
      estimateCost(
        { input: 1000, output: 100 },
        { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5, cacheWrite1h: 20 },
      ) + estimateCost({ input: 2000, output: 200 }, priceOf('claude-haiku-4-5')!);
    expect(shown.stdout).toContain(
      `cost:     ≈ ${formatDollars(expected)} (estimate at the prices of your settings)`,
    );

    const listed = await troupe(['tasks', 'list', '--json', '--store', dir], { cwd, home });
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((task) => task.id)).toEqual(['t_switched']);
  });
});
