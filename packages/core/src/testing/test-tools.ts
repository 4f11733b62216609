import * as v from 'valibot';
import { defineTool, type Tool, type ToolContext } from '../tools/define-tool.js';

/** One call of {@link echoAndSaveTools}: which tool, its validated input and its context. */
export type EchoOrSaveCall =
  | { tool: 'echo'; input: { text: string }; context: ToolContext }
  | { tool: 'save'; input: { note: string }; context: ToolContext };

/** Options of {@link echoAndSaveTools}. */
export interface EchoAndSaveOptions {
  /** Sees every call before its tool answers; a throw becomes the call's error result. */
  onCall?: (call: EchoOrSaveCall) => void;
  /** `save`'s answer for a note; `saved <note>` when not given. */
  savedAnswer?: (note: string) => string;
}

/**
 * The two tools troupe's tests run most, defined once: `echo`, a read tool answering
 * `echo: <text>`, and `save`, a write tool (so it needs approval) answering `saved <note>`.
 */
export function echoAndSaveTools(
  options: EchoAndSaveOptions = {},
): [echo: Tool<{ text: string }>, save: Tool<{ note: string }>] {
  const echo = defineTool({
    name: 'echo',
    description: 'Echo text',
    access: 'read',
    input: v.object({ text: v.string() }),
    execute: (input, context) => {
      options.onCall?.({ tool: 'echo', input, context });
      return `echo: ${input.text}`;
    },
  });
  const save = defineTool({
    name: 'save',
    description: 'Write a note',
    access: 'write',
    input: v.object({ note: v.string() }),
    execute: (input, context) => {
      options.onCall?.({ tool: 'save', input, context });
      return options.savedAnswer ? options.savedAnswer(input.note) : `saved ${input.note}`;
    },
  });
  return [echo, save];
}
