// Runs one grep tool call and prints its output (or `ERROR: message`). Usage:
// node --conditions=source --import tsx grep-child.ts <root> <pattern>
import { createGrepTool } from '../../src/tools/workspace-tools.js';

const [root, pattern] = process.argv.slice(2) as [string, string];
try {
  const output = await createGrepTool({ root }).execute(
    { pattern },
    { signal: new AbortController().signal, taskId: 't', agent: 'a', toolUseId: 'toolu_1' },
  );
  process.stdout.write(String(output));
} catch (error) {
  process.stdout.write(`ERROR: ${(error as Error).message}`);
}
