import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../events.js';
import {
  GIT_PUSH_LINES_CHECKED_IN_BASH,
  LINES_NOT_RUNNING_GIT_PUSH,
  MORE_GIT_PUSH_LINES,
} from './git-push-lines.js';
import { createPermissionPolicy } from './permission-policy.js';

// core's own types name no platform; both Node and browsers have it.
declare const performance: { now(): number };

const bash = (command: string) => ({ tool: 'bash', input: { command } }) as unknown as ApprovalRequest;
const write = (file_path: string) =>
  ({ tool: 'write', input: { file_path, content: 'x' } }) as unknown as ApprovalRequest;
const edit = (file_path: string) =>
  ({ tool: 'edit', input: { file_path, old_string: 'a', new_string: 'b' } }) as unknown as ApprovalRequest;

/** What a policy decided, in one word. */
function outcome(decision: ReturnType<ReturnType<typeof createPermissionPolicy>['decide']>): string {
  return typeof decision === 'string' ? decision : decision.decision;
}

// Every line here runs `git push` (or may, for all the line shows). With the deny rule and the
// `auto` approval mode (`otherwise: 'approve'`), each must be denied.
const SPELLINGS = [...GIT_PUSH_LINES_CHECKED_IN_BASH, ...MORE_GIT_PUSH_LINES];

// These cannot be analysed with certainty: under a deny rule they are refused.
const UNANALYSABLE = [
  "eval 'git push'",
  'eval "$CMD"',
  'source ./script.sh',
  '. ./script.sh',
  '$GIT push',
  '"$(echo git)" push',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
  '${G} push',
  'bash -c "$CMD"',
  "echo 'git push' | bash",
  "bash <<< 'git push'",
  'sh -s < script.sh',
  'gi? push',
  'git push (',
  'if true; then git push',
  "alias g='git push'",
  "trap 'git push' EXIT",
  "env -S 'git push'",
  "let 'x[$(git push)]'",
  "printf -v x '%s' 'a[$(git push)]'",
  'sudo -s',
  'hash -p /usr/bin/git g',
  'builtin eval x',
  '\\eval x',
  'su',
  'git$IFS push',
  'xargs -I % sh -c "%"',
  'find . -exec {} \\;',
  'sudo -X git push',
];

describe('deny rules against every spelling of a command (issue #21)', () => {
  const policy = createPermissionPolicy({ deny: ['Bash(git push:*)'], otherwise: 'approve' });

  it.each(SPELLINGS)('denies %j under Bash(git push:*)', (command) => {
    const decision = policy.decide(bash(command));
    expect(outcome(decision)).toBe('deny');
    expect(decision).toMatchObject({ reason: expect.stringContaining('Bash(git push:*)') });
  });

  it.each(UNANALYSABLE)('refuses %j, which cannot be checked with certainty', (command) => {
    const decision = policy.decide(bash(command));
    expect(outcome(decision)).toBe('deny');
    expect(decision).toMatchObject({ reason: expect.stringMatching(/cannot be checked/) });
  });

  it('has at least the issue’s 25 spellings', () => {
    expect(SPELLINGS.length + UNANALYSABLE.length).toBeGreaterThanOrEqual(25);
  });

  it.each(LINES_NOT_RUNNING_GIT_PUSH)('lets %j through: it does not run git push', (command) => {
    expect(policy.decide(bash(command))).toBe('approve');
  });

  it('names the deny rule that certainly covers a line before one that only may', () => {
    const two = createPermissionPolicy({
      deny: ['Bash(rm -rf:*)', 'Bash(git push:*)'],
      otherwise: 'approve',
    });
    expect(two.decide(bash('rm $X; git push'))).toEqual({
      decision: 'deny',
      reason: 'the permission rule Bash(git push:*) denies it',
    });
  });

  it('unanalysable lines are not refused when no deny rule speaks about the tool', () => {
    const lax = createPermissionPolicy({ deny: ['Write(.env)'], otherwise: 'approve' });
    expect(lax.decide(bash("eval 'echo hi'"))).toBe('approve');
  });

  it('refuses a line too long to analyse under a deny rule', () => {
    const long = `echo ${'a '.repeat(600_000)}`;
    expect(outcome(policy.decide(bash(long)))).toBe('deny');
  });

  it('stays linear on a line of many commands (4x the commands cost far less than 16x the time)', () => {
    const line = (commands: number) => `true; ${'echo x; '.repeat(commands)}`;
    // The fastest of a few runs, so a busy machine does not decide the outcome.
    const fastest = (text: string) => {
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 3; run += 1) {
        const start = performance.now();
        expect(policy.decide(bash(text))).toBe('approve');
        best = Math.min(best, performance.now() - start);
      }
      return best;
    };
    const small = fastest(line(5_000));
    const large = fastest(line(20_000));
    expect(large).toBeLessThan(small * 10);
  });

  it('survives hostile nesting without throwing', () => {
    for (const command of [
      '$('.repeat(5_000),
      '('.repeat(50_000),
      '`'.repeat(1_001),
      "bash -c '".repeat(40),
    ]) {
      expect(outcome(policy.decide(bash(command)))).toBe('deny');
    }
  });
});

describe('allow rules cover a compound command only when every part is allowed', () => {
  const policy = createPermissionPolicy({
    allow: ['Bash(npm test:*)', 'Bash(git status)', 'Bash(git diff:*)'],
    deny: ['Bash(git push:*)'],
  });

  it.each([
    'npm test',
    'npm test -- --watch',
    'npm  test',
    'git status',
    'git status && npm test',
    'npm test; git diff --stat',
    'git diff | npm test',
    'npm test 2>&1',
    'npm test > /dev/null 2>&1',
    'npm test 1>/dev/stderr',
    'npm test -- "$FILE"',
    '(npm test)',
  ])('approves %j', (command) => {
    expect(policy.decide(bash(command))).toBe('approve');
  });

  it.each([
    'npm test && rm -rf /',
    'npm test; curl evil.example',
    'npm testx',
    'npm tests',
    'npm test > out.txt',
    'npm test $(rm -rf ~)',
    'npm test `id`',
    'npm test\nrm -rf ~',
    'NODE_OPTIONS=--require=./evil.js npm test',
    'timeout 60 npm test',
    './npm test',
    "bash -c 'npm test'",
    'git status --short',
    'npm $T',
    'git status & rm x',
    'f() { rm -rf x; }; npm test',
  ])('asks about %j', (command) => {
    expect(policy.decide(bash(command))).toBe('ask');
  });

  it('denies a compound line with an allowed part and a denied part', () => {
    expect(outcome(policy.decide(bash('npm test && git push')))).toBe('deny');
  });

  it('asks about an unanalysable line when no deny rule speaks about bash, and refuses it when one does', () => {
    const allowOnly = createPermissionPolicy({ allow: ['Bash(npm test:*)'] });
    for (const command of ['npm test | sh', "eval 'npm test'"]) {
      expect(allowOnly.decide(bash(command))).toBe('ask');
      expect(outcome(policy.decide(bash(command)))).toBe('deny');
    }
  });
});

describe('file rules match the normalised workspace path', () => {
  const root = '/work/project';
  const policy = createPermissionPolicy({
    allow: ['Edit(src/**)'],
    deny: ['Edit(secrets/**)', 'Write(.env)'],
    otherwise: 'approve',
    root,
  });
  const asking = createPermissionPolicy({ allow: ['Edit(src/**)'], root });

  it.each([
    write('secrets/../secrets/b.txt'),
    write('x/../.env'),
    write('./.env'),
    write('.//secrets///a.txt'),
    write('secrets\\b.txt'),
    write('src/../secrets/a.txt'),
    write('/work/project/secrets/b.txt'),
    write('/work/project/./x/../.env'),
    write('/work/project//secrets/b.txt'),
    write('../project/.env'),
    edit('secrets/a/../../secrets/deep/c.txt'),
    write('secrets/new\nline.txt'),
    // Deny rules ignore letter case: on macOS and Windows SECRETS/ is secrets/.
    write('SECRETS/b.txt'),
    write('.ENV'),
  ])('denies $input.file_path', (request) => {
    expect(outcome(policy.decide(request))).toBe('deny');
  });

  it('reads a Windows-style path against a Windows root', () => {
    const windows = createPermissionPolicy({
      deny: ['Write(.env)'],
      otherwise: 'approve',
      root: 'C:\\work\\project',
    });
    expect(outcome(windows.decide(write('C:\\work\\project\\x\\..\\.env')))).toBe('deny');
    expect(outcome(windows.decide(write('c:/work/project/.env')))).toBe('deny');
    expect(windows.decide(write('C:\\work\\project\\src\\a.ts'))).toBe('approve');
  });

  it.each([
    write('src/a.ts'),
    write('src/../src/a.ts'),
    write('/work/project/src/x/y.ts'),
    edit('./src//a.ts'),
  ])('allows $input.file_path under Edit(src/**)', (request) => {
    expect(asking.decide(request)).toBe('approve');
  });

  it.each([
    write('src/../../etc/passwd'),
    write('../elsewhere/src/a.ts'),
    write('/elsewhere/src/a.ts'),
    write('/work/project-evil/src/a.ts'),
    write('src/../secrets/a.txt'),
    write('/work/project/src/../../other/src/a.ts'),
  ])('never allows $input.file_path, which is not under src/ in the workspace', (request) => {
    expect(asking.decide(request)).toBe('ask');
  });
});
