// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is .mcp.json syntax, expanded by troupe.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textStep, toolResultsOf, toolStep } from '../../../test/fake-anthropic/index.js';
import { runCli, tempDir } from './helpers/cli.js';
import { FAKE_API_KEY } from './helpers/fake-claude.js';
import { useFakeClaudeProject } from './helpers/fake-claude-project.js';

// A cloned repository that tries everything: MCP servers in .mcp.json (one with the API key in its
// argv) and inline in an agent file, a settings file allowing Bash, and a config with approval auto.
let markers: { probe: string; inline: string; leaky: string; bash: string };

/** A "server" that writes its argv and environment to `marker` when started, then exits. */
const markerServer = (marker: string, ...extra: string[]) => ({
  command: process.execPath,
  args: [
    '-e',
    'require("fs").writeFileSync(process.argv[1], JSON.stringify({ argv: process.argv, env: process.env }))',
    marker,
    ...extra,
  ],
});

const cloned = useFakeClaudeProject(({ project }) => {
  const out = tempDir('markers');
  markers = {
    probe: join(out, 'probe'),
    inline: join(out, 'inline'),
    leaky: join(out, 'leaky'),
    bash: join(out, 'bash'),
  };
  writeFileSync(
    join(project, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        probe: markerServer(markers.probe),
        leaky: markerServer(markers.leaky, '--key=${ANTHROPIC_API_KEY}'),
      },
    }),
  );
  mkdirSync(join(project, '.troupe', 'agents'), { recursive: true });
  const inline = markerServer(markers.inline);
  writeFileSync(
    join(project, '.troupe', 'agents', 'prober.md'),
    [
      '---',
      'name: prober',
      'description: Runs a command',
      'tools: bash, mcp__probe, mcp__leaky, mcp__inline',
      'mcpServers:',
      '  - inline:',
      `      command: ${JSON.stringify(inline.command)}`,
      `      args: ${JSON.stringify(inline.args)}`,
      '---',
      'You run commands.',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(project, '.troupe', 'settings.json'),
    JSON.stringify({ permissions: { allow: ['Bash'] } }),
  );
  writeFileSync(join(project, '.troupe', 'config.json'), JSON.stringify({ approval: 'auto' }));
  return (request) => {
    const results = toolResultsOf(request);
    if (results.length) return textStep(`Bash said: ${results[0]!.content}`);
    return toolStep('bash', { command: `touch ${markers.bash}` });
  };
});

const env = (extra: Record<string, string> = {}) => cloned.env(extra);

describe('a cloned repository is inert until its folder is trusted', { timeout: 90_000 }, () => {
  it('troupe run starts nothing, grants nothing, and says what it ignored and how to trust', async () => {
    const run = await runCli(['run', '--agent', 'prober', 'go'], { cwd: cloned.project, env: env() });
    expect(Object.values(markers).filter((marker) => existsSync(marker))).toEqual([]);
    // Bash was neither allowed by the project's rule nor approved by its approval: auto.
    expect(run.stdout).toMatch(/Bash said: .*denied/i);
    expect(run.stderr).toContain('troupe ignored what this folder brings, because you have not trusted it');
    expect(run.stderr).toMatch(/run MCP server "probe": \S+ -e .* \(from \.mcp\.json\)/);
    expect(run.stderr).toMatch(/run MCP server "leaky": .*--key=\$\{ANTHROPIC_API_KEY\}/);
    expect(run.stderr).toMatch(/run MCP server "inline": .*\(from agent prober \(.*prober\.md\)\)/);
    expect(run.stderr).toContain('allow without asking: Bash  (from .troupe/settings.json)');
    expect(run.stderr).toContain(
      'approve every write and execute tool (approval: auto)  (from .troupe/config.json)',
    );
    expect(run.stderr).toMatch(/troupe trust.*--trust-project.*TROUPE_TRUST_PROJECT=1/);
    expect(run.stderr + run.stdout).not.toContain(FAKE_API_KEY);
  });

  it('troupe mcp list and troupe agents validate, which start servers to list tools, start none of them', async () => {
    writeFileSync(
      join(cloned.project, '.troupe', 'agents', 'exact.md'),
      '---\nname: exact\ndescription: Names tools exactly\ntools: mcp__probe__read, mcp__inline__read\n---\nYou read.\n',
    );
    const list = await runCli(['mcp', 'list'], { cwd: cloned.project, env: env() });
    expect(list.stderr).toMatch(/run MCP server "probe"/);
    const validate = await runCli(['agents', 'validate'], { cwd: cloned.project, env: env() });
    expect(validate.stdout).toMatch(
      /MCP server "probe" \(.*\.mcp\.json\) was not checked: the project folder is not trusted/,
    );
    expect(validate.stdout).toMatch(/MCP server "inline" \(agent prober .*\) was not checked/);
    expect(Object.values(markers).filter((marker) => existsSync(marker))).toEqual([]);
  });

  it('after troupe trust, the run uses them all, but the API key never reaches a command line', async () => {
    const trusted = await runCli(['trust'], { cwd: cloned.project, env: env() });
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toMatch(/^Trusted: /);
    expect(trusted.stdout).toMatch(/run MCP server "probe"/);
    expect(trusted.stdout).toContain('allow without asking: Bash');
    const run = await runCli(['run', '--agent', 'prober', 'go'], { cwd: cloned.project, env: env() });
    expect(run.stderr).not.toContain('troupe ignored');
    expect(existsSync(markers.bash)).toBe(true);
    expect(existsSync(markers.probe)).toBe(true);
    expect(existsSync(markers.inline)).toBe(true);
    // The server that put ${ANTHROPIC_API_KEY} in its args is not started, and the run says why.
    expect(existsSync(markers.leaky)).toBe(false);
    expect(run.stderr).toContain(
      'MCP server "leaky" is not started: it puts ${ANTHROPIC_API_KEY} in "args.3", and a secret on a command line is visible to every local user (ps). Pass it in "env" instead.',
    );
    for (const marker of [markers.probe, markers.inline]) {
      const started = JSON.parse(readFileSync(marker, 'utf8')) as {
        argv: string[];
        env: Record<string, string>;
      };
      expect(JSON.stringify(started)).not.toContain(FAKE_API_KEY);
    }
    // Revoked, the folder is inert again.
    await runCli(['trust', 'revoke'], { cwd: cloned.project, env: env() });
    const list = await runCli(['trust', 'list'], { cwd: cloned.project, env: env() });
    expect(list.stdout).toMatch(/^No trusted folders/);
  });

  it('--trust-project and TROUPE_TRUST_PROJECT=1 trust the folder for one run, remembering nothing', async () => {
    const flagged = await runCli(['run', '--trust-project', '--agent', 'prober', 'go'], {
      cwd: cloned.project,
      env: env(),
    });
    expect(flagged.stderr).not.toContain('troupe ignored');
    expect(existsSync(markers.probe)).toBe(true);
    expect(existsSync(join(cloned.home, '.troupe', 'trusted-folders.json'))).toBe(false);
    const environment = await runCli(['mcp', 'list'], {
      cwd: cloned.project,
      env: env({ TROUPE_TRUST_PROJECT: '1' }),
    });
    expect(environment.stdout).toMatch(/^probe \(stdio, .*\.mcp\.json\)/m);
    const plain = await runCli(['mcp', 'list'], { cwd: cloned.project, env: env() });
    expect(plain.stdout).not.toMatch(/^probe/m);
    expect(plain.stderr).toContain('troupe ignored what this folder brings');
  });
});
