import type { AgentDefinition } from '@troupe/core';

/** The agent of the restore-lock tests: it may call the marker-appending write tool. */
export const restoreLockAgent: AgentDefinition = {
  name: 'marker',
  description: 'Appends to the marker file once',
  systemPrompt: 'Append to the marker file, then say done.',
  tools: ['append_marker'],
};
