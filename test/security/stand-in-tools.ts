// Tools the hostile-model tests hand their runtime: a read tool that takes any input and a write
// tool that only pretends, so that an attack reaches tool calls and approvals without side effects.
import { defineTool } from '@troupe/core';
import * as v from 'valibot';

/** `echo`: a read tool taking any input; answers `echoed`. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes its input.',
  access: 'read',
  input: v.unknown(),
  execute: () => 'echoed',
});

/** `touch`: a write tool (so it asks for approval) taking `{ name }`; writes nothing, answers `wrote NAME`. */
export const touchTool = defineTool({
  name: 'touch',
  description: 'Pretends to write.',
  access: 'write',
  input: v.object({ name: v.string() }),
  execute: ({ name }) => `wrote ${name}`,
});
