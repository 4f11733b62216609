import { describe, expect, it } from 'vitest';
import { redact, secretsOf } from '../src/redact.js';

describe('redact (MCP fault messages)', () => {
  it("removes a server's env and header values in any encoding, and connection-string passwords", () => {
    const secrets = secretsOf({
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: 'Bearer mcp-token-0123456789', 'X-Flag': '1' },
    });
    expect(secrets).toEqual(['Bearer mcp-token-0123456789']);
    const token = 'mcp-token-0123456789';
    const message = [
      'server said: bad header Bearer mcp-token-0123456789',
      `echoed as base64: ${Buffer.from(`Bearer ${token}`).toString('base64')}`,
      `and in hex: ${Buffer.from('Bearer mcp-token-0123456789').toString('hex')}`,
      'could not reach postgres://mcp:DbPassw0rd@db:5432/mcp',
    ].join('\n');
    const out = redact(message, secrets);
    for (const leak of [
      token,
      Buffer.from(`Bearer ${token}`).toString('base64').slice(0, 20),
      Buffer.from('Bearer mcp-token-0123456789').toString('hex'),
      'DbPassw0rd',
    ]) {
      expect(out).not.toContain(leak);
    }
    expect(out).toContain('postgres://mcp:***@db:5432/mcp');
    expect(redact('plain text with 1 and true', secrets)).toBe('plain text with 1 and true');
  });
});
