import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError } from '../src/errors.js';
import {
  forgetTrust,
  projectTrust,
  readTrustedFolders,
  rememberTrust,
  trustedFoldersFile,
  userMcpVariables,
} from '../src/setup/project-trust.js';
import {
  askToTrust,
  ignoredNotice,
  parseTrustAnswer,
  trustQuestion,
  type UntrustedParts,
} from '../src/setup/trust-report.js';
import { tempDir } from './helpers/cli.js';

const folder = '/work/repo';
const parts: UntrustedParts = {
  mcp: [
    { name: 'probe', source: join(folder, '.mcp.json'), runs: 'node server.js --port 3' },
    { name: 'inline', source: 'agent prober (/work/repo/.troupe/agents/prober.md)', runs: 'npx evil' },
  ],
  allow: [{ file: join(folder, '.troupe', 'settings.json'), rules: ['Bash', 'Edit(src/**)'] }],
  settings: [
    { file: join(folder, '.troupe', 'config.json'), setting: 'approval', value: 'auto' },
    { file: join(folder, '.troupe', 'config.json'), setting: 'agentDirs', value: '/etc' },
  ],
};

describe('the trust question', () => {
  it('names every server with its command, every grant and the approval mode, and defaults to no', () => {
    expect(trustQuestion(parts, folder).split('\n')).toEqual([
      'This folder is not trusted yet: /work/repo',
      'Its files ask troupe to:',
      '  - run MCP server "probe": node server.js --port 3  (from .mcp.json)',
      '  - run MCP server "inline": npx evil  (from agent prober (/work/repo/.troupe/agents/prober.md))',
      '  - allow without asking: Bash, Edit(src/**)  (from .troupe/settings.json)',
      '  - approve every write and execute tool (approval: auto)  (from .troupe/config.json)',
      '  - read agents from /etc, outside the project (agentDirs)  (from .troupe/config.json)',
      'Only trust a folder whose files you have read or whose authors you trust: MCP servers and hooks run as you.',
      'Trust this folder (remembered in ~/.troupe/trusted-folders.json)? [y/N] ',
    ]);
  });

  it.each([
    ['y', true],
    ['Y', true],
    [' yes ', true],
    ['', false],
    ['n', false],
    ['yep', false],
    ['sure', false],
    [undefined, false],
  ])('answer %j trusts: %s', (answer, trusted) => {
    expect(parseTrustAnswer(answer)).toBe(trusted);
  });

  it('asks on the terminal; a yes line trusts, input that ends unanswered does not', async () => {
    const ask = async (input: string | undefined) => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      let shown = '';
      stdout.on('data', (chunk: Buffer) => {
        shown += chunk.toString();
      });
      const answer = askToTrust({ stdin, stdout: Object.assign(stdout, { isTTY: true }) }, parts, folder);
      if (input === undefined) stdin.end();
      else stdin.write(input);
      return { trusted: await answer, shown };
    };
    const yes = await ask('y\n');
    expect(yes.trusted).toBe(true);
    expect(yes.shown).toContain('run MCP server "probe": node server.js --port 3');
    expect((await ask('\n')).trusted).toBe(false);
    expect((await ask(undefined)).trusted).toBe(false);
  });

  it('the non-interactive notice says what was ignored, why, and how to trust', () => {
    const notice = ignoredNotice(parts, folder);
    expect(notice).toMatch(
      /^troupe ignored what this folder brings, because you have not trusted it \(\/work\/repo\):/,
    );
    expect(notice).toContain('allow without asking: Bash, Edit(src/**)');
    expect(notice).toMatch(
      /`troupe trust` \(remembered\), `--trust-project` \(this run only\) or TROUPE_TRUST_PROJECT=1 \(CI\)\.$/,
    );
  });
});

describe('trusted folders', () => {
  it('are remembered by real path (a link to the folder is the same folder), and forgotten', () => {
    const home = tempDir('home');
    const project = realpathSync(tempDir('project'));
    const link = join(tempDir('links'), 'repo');
    symlinkSync(project, link);
    const env = {};
    expect(projectTrust({ cwd: link, home, env })).toMatchObject({ trusted: false, reason: 'not-trusted' });
    expect(rememberTrust(home, link, new Date('2026-11-26T10:00:00Z'))).toBe(true);
    expect(rememberTrust(home, project)).toBe(false);
    expect(readTrustedFolders(home).folders).toEqual([
      { path: project, trustedAt: '2026-11-26T10:00:00.000Z' },
    ]);
    expect(projectTrust({ cwd: project, home, env })).toMatchObject({
      folder: project,
      trusted: true,
      reason: 'remembered',
    });
    // A subfolder is not covered.
    mkdirSync(join(project, 'sub'));
    expect(projectTrust({ cwd: join(project, 'sub'), home, env }).trusted).toBe(false);
    expect(forgetTrust(home, link)).toBe(true);
    expect(forgetTrust(home, link)).toBe(false);
    expect(projectTrust({ cwd: project, home, env }).trusted).toBe(false);
  });

  it('the home folder, --trust-project and TROUPE_TRUST_PROJECT=1 trust without remembering', () => {
    const home = tempDir('home');
    const project = tempDir('project');
    expect(projectTrust({ cwd: home, home, env: {} }).reason).toBe('home');
    expect(projectTrust({ cwd: project, home, env: {}, flag: true }).reason).toBe('flag');
    expect(projectTrust({ cwd: project, home, env: { TROUPE_TRUST_PROJECT: '1' } }).reason).toBe(
      'environment',
    );
    expect(projectTrust({ cwd: project, home, env: { TROUPE_TRUST_PROJECT: 'yes please' } }).trusted).toBe(
      false,
    );
    expect(readTrustedFolders(home).folders).toEqual([]);
  });

  it('a broken trusted-folders file or mcpVariables setting is one clear error naming the file and field', () => {
    const home = tempDir('home');
    mkdirSync(join(home, '.troupe'));
    writeFileSync(trustedFoldersFile(home), JSON.stringify({ version: 1, folders: [{ path: 3 }] }));
    expect(() => readTrustedFolders(home)).toThrow(CliError);
    expect(() => readTrustedFolders(home)).toThrow(
      `${trustedFoldersFile(home)} is invalid: field "folders.0.path" must be a folder path; fix or delete it.`,
    );
    writeFileSync(join(home, '.troupe', 'settings.json'), JSON.stringify({ mcpVariables: 'GITHUB_TOKEN' }));
    expect(() => userMcpVariables(home)).toThrow(
      /settings\.json: mcpVariables must be a list of variable names/,
    );
    writeFileSync(join(home, '.troupe', 'settings.json'), JSON.stringify({ mcpVariables: ['GITHUB_TOKEN'] }));
    expect(userMcpVariables(home)).toEqual(['GITHUB_TOKEN']);
  });
});
