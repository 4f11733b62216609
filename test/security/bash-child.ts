// Runs one bash tool call in a process whose own environment holds credentials, and prints its
// output. Usage: node --conditions=source --import tsx bash-child.ts <root> <command>
import { createBashTool } from '@troupe/node';

const [root, command] = process.argv.slice(2) as [string, string];
const bash = createBashTool({ root });
const output = await bash.execute(
  { command },
  { signal: new AbortController().signal, taskId: 't', agent: 'a', toolUseId: 'toolu_1' },
);
process.stdout.write(String(output));
