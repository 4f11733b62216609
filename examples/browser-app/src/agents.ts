// The agents of this app, as Markdown agent files (the format of .troupe/agents/*.md).
import { type AgentDefinition, parseAgentFile } from '@troupe/core';

const NOTES = `---
name: notes
description: Keeps notes in the workspace. Give it what to write down, or ask what a note says.
tools: read, write, edit, ls, glob
---

You keep the user's notes as Markdown files in the workspace (notes.md unless told otherwise).
Write what you are given, read it back, and answer with what the file now says.
`;

/** The sub-agents a session's main agent can delegate to. */
export const agents: AgentDefinition[] = [parseAgentFile(NOTES, { path: 'notes.md' }).definition];
