import type { Runtime, Session, TaskStore } from '@troupe/core';
import type { ChatHistory } from './chat-history.js';
import type { ChatLog } from './chat-log.js';
import type { ModelSettings } from './settings.js';
import type { TaskViews } from './task-views.js';

/** What every page gets: the runtime, the chat session and the board's task views. */
export interface AppContext {
  runtime: Runtime;
  store: TaskStore;
  session: Session;
  chat: ChatHistory;
  /** The conversation as shown: kept from the session's messages whichever page is open. */
  chatLog: ChatLog;
  views: TaskViews;
  settings: ModelSettings;
  /** The names of the tools the runtime was given. */
  toolNames: readonly string[];
}
