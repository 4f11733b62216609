// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the configuration syntax under test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessOf, agentMcpServers, McpConfigError, parseMcpConfig } from '../src/index.js';
import { loadMcpConfig, serverEnvironment } from '../src/node/index.js';

describe('parseMcpConfig', () => {
  it('reads Claude Code .mcp.json entries: stdio and http', () => {
    const { servers, warnings } = parseMcpConfig(
      {
        mcpServers: {
          github: { command: 'npx', args: ['-y', 'server-github'], env: { TOKEN: '${GH_TOKEN}' } },
          docs: {
            type: 'http',
            url: 'https://example.test/mcp',
            headers: { Authorization: 'Bearer ${DOCS_KEY}' },
          },
        },
      },
      { source: '.mcp.json', environment: { GH_TOKEN: 'ghp_secret', DOCS_KEY: 'k-123' } },
    );
    expect(warnings).toEqual([]);
    expect(servers).toEqual([
      {
        name: 'github',
        source: '.mcp.json',
        config: {
          type: 'stdio',
          command: 'npx',
          args: ['-y', 'server-github'],
          env: { TOKEN: 'ghp_secret' },
        },
      },
      {
        name: 'docs',
        source: '.mcp.json',
        config: { type: 'http', url: 'https://example.test/mcp', headers: { Authorization: 'Bearer k-123' } },
      },
    ]);
  });

  it('expands ${VAR:-default}; an unset variable is a warning that names server, field and variable', () => {
    const { servers, warnings } = parseMcpConfig(
      { s: { command: '${BIN:-node}', args: ['${MISSING}'] } },
      { source: 'x.json', environment: {} },
    );
    expect(servers[0]!.config).toMatchObject({ command: 'node', args: [''] });
    expect(warnings).toEqual([
      'x.json: MCP server "s" uses ${MISSING} in s.args.0, but MISSING is not set; it expands to an empty string.',
    ]);
  });

  it('reads troupe overrides: access, toolAccess, timeouts', () => {
    const { servers } = parseMcpConfig({
      s: {
        command: 'x',
        access: 'read',
        toolAccess: { write: 'write' },
        timeoutMs: 5000,
        startTimeoutMs: 100,
      },
    });
    expect(servers[0]!.config).toMatchObject({
      access: 'read',
      toolAccess: { write: 'write' },
      timeoutMs: 5000,
    });
  });

  it.each([
    [{ s: {} }, /x\.json: MCP server "s": "command" is required/],
    [{ s: { type: 'sse', url: 'http://a' } }, /type "sse" .* not supported; use "type": "http"/],
    [{ s: { type: 'http', url: 'not a url' } }, /"url" must be an http\(s\) URL, got "not a url"/],
    [{ s: { command: 'x', access: 'admin' } }, /"access" must be 'read', 'write' or 'execute'/],
    [{ s: 3 }, /MCP server "s" must be an object/],
    [{ mcpServers: [] }, /"mcpServers" must be an object/],
  ])('names source, server and field for %j', (value, message) => {
    expect(() => parseMcpConfig(value, { source: 'x.json' })).toThrow(McpConfigError);
    expect(() => parseMcpConfig(value, { source: 'x.json' })).toThrow(message);
  });

  it('never repeats an env or header value in an error', () => {
    expect(() => parseMcpConfig({ s: { command: 'x', env: { TOKEN: 12345678 } } })).toThrow(
      /"env.TOKEN" must be/,
    );
    try {
      parseMcpConfig({ s: { command: 'x', env: { TOKEN: 12345678 } } });
    } catch (error) {
      expect((error as Error).message).not.toContain('12345678');
    }
  });
});

describe('${VAR} and secrets', () => {
  const environment = {
    ANTHROPIC_API_KEY: 'sk-ant-secret-1',
    GITHUB_TOKEN: 'ghp_2',
    PROJECT_DIR: '/p',
    HOME: '/h',
  };

  it.each([
    [
      'args',
      { command: 'node', args: ['s.js', '--key=${ANTHROPIC_API_KEY}'] },
      'args.1',
      'ANTHROPIC_API_KEY',
    ],
    ['command', { command: '${GITHUB_TOKEN}' }, 'command', 'GITHUB_TOKEN'],
    ['cwd', { command: 'x', cwd: '/tmp/${DB_PASSWORD}' }, 'cwd', 'DB_PASSWORD'],
  ])(
    "a secret-looking variable in %s is refused, even in the host's own configuration: the server is left out",
    (_where, entry, field, name) => {
      const { servers, warnings } = parseMcpConfig(
        { s: entry, ok: { command: 'ok' } },
        { source: 'x.json', environment },
      );
      expect(servers.map((server) => server.name)).toEqual(['ok']);
      expect(warnings).toEqual([
        `x.json: MCP server "s" is not started: it puts \${${name}} in "${field}", and a secret on a command line is visible to every local user (ps). Pass it in "env" instead.`,
      ]);
      expect(JSON.stringify(servers)).not.toContain('sk-ant-secret-1');
    },
  );

  it("the same variable in env is expanded for the host's own configuration", () => {
    const { servers } = parseMcpConfig(
      { s: { command: 'node', env: { ANTHROPIC_API_KEY: '${ANTHROPIC_API_KEY}' } } },
      { environment },
    );
    expect(servers[0]!.config).toMatchObject({ env: { ANTHROPIC_API_KEY: 'sk-ant-secret-1' } });
  });

  it('a project policy expands only the variables the user allowed (and harmless ones like HOME)', () => {
    const { servers, warnings } = parseMcpConfig(
      {
        fine: { command: 'node', args: ['${PROJECT_DIR}', '${HOME}'] },
        token: { command: 'node', env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } },
        header: {
          type: 'http',
          url: 'https://a.test/mcp',
          headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' },
        },
      },
      {
        source: '.mcp.json',
        environment,
        variables: { allow: ['PROJECT_DIR'], howToAllow: 'Add "{name}" to mcpVariables.' },
      },
    );
    expect(servers.map((server) => [server.name, server.config])).toEqual([
      ['fine', { type: 'stdio', command: 'node', args: ['/p', '/h'], env: {} }],
    ]);
    expect(warnings).toEqual([
      '.mcp.json: MCP server "token" is not started: it reads ${GITHUB_TOKEN} in "env.GITHUB_TOKEN", which the user\'s settings do not allow for this configuration. Add "GITHUB_TOKEN" to mcpVariables.',
      '.mcp.json: MCP server "header" is not started: it reads ${GITHUB_TOKEN} in "headers.Authorization", which the user\'s settings do not allow for this configuration. Add "GITHUB_TOKEN" to mcpVariables.',
    ]);
    const allowed = parseMcpConfig(
      { token: { command: 'node', env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } } },
      { environment, variables: { allow: ['GITHUB_TOKEN'] } },
    );
    expect(allowed.servers[0]!.config).toMatchObject({ env: { GITHUB_TOKEN: 'ghp_2' } });
  });

  it('a variable whose value looks like a credential never goes on a command line, whatever its name', () => {
    const values = {
      CONN: 'postgres://app:hunter2@db.local/app',
      MY_VALUE: 'sk-ant-api03-abcdef',
      HOST: 'db.local',
    };
    const { servers, warnings } = parseMcpConfig(
      {
        conn: { command: 'psql-mcp', args: ['${CONN}'] },
        key: { command: 'x', args: ['--k', '${MY_VALUE}'] },
        fine: { command: 'x', args: ['${HOST}'], env: { CONN: '${CONN}' } },
      },
      { environment: values },
    );
    expect(servers.map((server) => server.name)).toEqual(['fine']);
    expect(warnings).toEqual([
      expect.stringMatching(/"conn" is not started: it puts \$\{CONN\} in "args.0"/),
      expect.stringMatching(/"key" is not started: it puts \$\{MY_VALUE\} in "args.1"/),
    ]);
    expect(JSON.stringify(warnings)).not.toContain('hunter2');
  });

  it('an allowed secret still never goes on a command line', () => {
    const { servers, warnings } = parseMcpConfig(
      { s: { command: 'node', args: ['${GITHUB_TOKEN}'] } },
      { environment, variables: { allow: ['GITHUB_TOKEN'] } },
    );
    expect(servers).toEqual([]);
    expect(warnings[0]).toMatch(/puts \$\{GITHUB_TOKEN\} in "args.0"/);
  });

  it("agentMcpServers: a project agent's inline servers are ignored until the project is trusted", () => {
    const server = {
      name: 'probe',
      config: { command: 'node', args: ['-e', 'boom', '${ANTHROPIC_API_KEY}'] },
    };
    const agents = [
      {
        name: 'p',
        description: 'd',
        systemPrompt: 's',
        source: 'project' as const,
        path: '/p/a.md',
        mcpServers: [server],
      },
      {
        name: 'u',
        description: 'd',
        systemPrompt: 's',
        source: 'user' as const,
        mcpServers: [{ name: 'mine', config: { command: 'mine', env: { T: '${GITHUB_TOKEN}' } } }],
      },
    ];
    const untrusted = agentMcpServers(agents, environment);
    expect(untrusted.servers.map((entry) => entry.name)).toEqual(['mine']);
    expect(untrusted.ignored).toEqual([
      { name: 'probe', source: 'agent p (/p/a.md)', runs: 'node -e boom ${ANTHROPIC_API_KEY}' },
    ]);
    const trusted = agentMcpServers(agents, environment, { trustProject: true });
    expect(trusted.servers.map((entry) => entry.name)).toEqual(['mine']);
    expect(trusted.warnings).toEqual([
      expect.stringMatching(/MCP server "probe" is not started: it puts \$\{ANTHROPIC_API_KEY\} in "args.2"/),
    ]);
  });
});

describe('accessOf', () => {
  it.each([
    // The server's own readOnlyHint never lets a tool skip approval: only the user's overrides do.
    [{ readOnlyHint: true }, {}, 'write'],
    [{ readOnlyHint: true, destructiveHint: true }, {}, 'execute'],
    [{ destructiveHint: true }, { access: 'read' as const }, 'read'],
    [{ readOnlyHint: false, destructiveHint: false, openWorldHint: false }, {}, 'write'],
    [{ destructiveHint: true }, {}, 'execute'],
    [{ openWorldHint: true }, {}, 'execute'],
    [undefined, {}, 'write'],
    [{ readOnlyHint: true }, { access: 'write' as const }, 'write'],
    [{ destructiveHint: true }, { access: 'write' as const, toolAccess: { t: 'read' as const } }, 'read'],
  ])('%j with overrides %j is %s', (annotations, overrides, expected) => {
    expect(accessOf('t', annotations, overrides)).toBe(expected);
  });
});

describe('loadMcpConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'troupe-mcp-config-'));
    mkdirSync(join(dir, 'project'));
    mkdirSync(join(dir, 'home', '.troupe'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the project .mcp.json and the user ~/.troupe/mcp.json; the project wins', () => {
    writeFileSync(
      join(dir, 'project', '.mcp.json'),
      JSON.stringify({ mcpServers: { a: { command: 'project-a' } } }),
    );
    writeFileSync(
      join(dir, 'home', '.troupe', 'mcp.json'),
      JSON.stringify({ mcpServers: { a: { command: 'user-a' }, b: { command: '${B_BIN}' } } }),
    );
    const loaded = loadMcpConfig({
      cwd: join(dir, 'project'),
      home: join(dir, 'home'),
      environment: { B_BIN: 'bee' },
      trustProject: true,
    });
    expect(
      loaded.servers.map((server) => [server.name, (server.config as { command: string }).command]),
    ).toEqual([
      ['a', 'project-a'],
      ['b', 'bee'],
    ]);
    expect(loaded.warnings).toEqual([
      expect.stringMatching(/"a" in .*mcp\.json is shadowed by the one in .*\.mcp\.json/),
    ]);
  });

  it("an untrusted project's .mcp.json runs nothing: its servers are listed as ignored, as written", () => {
    writeFileSync(
      join(dir, 'project', '.mcp.json'),
      JSON.stringify({
        mcpServers: { probe: { command: 'node', args: ['-e', 'x', '${ANTHROPIC_API_KEY}'] } },
      }),
    );
    writeFileSync(
      join(dir, 'home', '.troupe', 'mcp.json'),
      JSON.stringify({ mcpServers: { mine: { command: 'm' } } }),
    );
    const places = {
      cwd: join(dir, 'project'),
      home: join(dir, 'home'),
      environment: { ANTHROPIC_API_KEY: 'sk-1' },
    };
    const untrusted = loadMcpConfig(places);
    expect(untrusted.servers.map((server) => server.name)).toEqual(['mine']);
    expect(untrusted.ignored).toEqual([
      { name: 'probe', source: join(dir, 'project', '.mcp.json'), runs: 'node -e x ${ANTHROPIC_API_KEY}' },
    ]);
    expect(untrusted.files).toEqual([join(dir, 'home', '.troupe', 'mcp.json')]);
    // Trusted, it loads, but the key is still refused on the command line.
    const trusted = loadMcpConfig({ ...places, trustProject: true });
    expect(trusted.ignored).toEqual([]);
    expect(trusted.servers.map((server) => server.name)).toEqual(['mine']);
    expect(trusted.warnings).toEqual([
      expect.stringMatching(/"probe" is not started: it puts \$\{ANTHROPIC_API_KEY\}/),
    ]);
    expect(JSON.stringify(trusted)).not.toContain('sk-1');
  });

  it('no files: no servers; invalid JSON: an error naming the file', () => {
    expect(loadMcpConfig({ cwd: join(dir, 'project'), home: join(dir, 'home') }).servers).toEqual([]);
    writeFileSync(join(dir, 'project', '.mcp.json'), '{ "mcpServers": ');
    expect(() => loadMcpConfig({ cwd: join(dir, 'project'), home: join(dir, 'home') })).toThrow(
      /project\/\.mcp\.json: not valid JSON/,
    );
  });
});

describe('serverEnvironment', () => {
  it('passes PATH and HOME, drops credentials, adds what the configuration names', () => {
    const environment = serverEnvironment(
      { EXTRA: '1' },
      { PATH: '/bin', HOME: '/h', ANTHROPIC_API_KEY: 'sk', AWS_SECRET_ACCESS_KEY: 'a', GITHUB_TOKEN: 'g' },
    );
    expect(environment).toEqual({ PATH: '/bin', HOME: '/h', EXTRA: '1' });
  });
});
