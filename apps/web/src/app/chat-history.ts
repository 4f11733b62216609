import type { Message } from '@troupe/core';
import { createStore, get, set } from 'idb-keyval';

/** One line of the chat as the page shows it. */
export interface ChatLine {
  role: 'user' | 'assistant' | 'announcement' | 'error';
  /** The text; for an error, its cause. */
  text: string;
  /** An error's headline. */
  title?: string;
  /** An error's way on: what to do in this app. */
  advice?: string;
  /** The message to send again (an error line's retry button). */
  retry?: string;
}

/** The chat that survives a reload: the session's key, its conversation, and the lines shown. */
export interface ChatHistory {
  sessionKey: string;
  messages: Message[];
  lines: ChatLine[];
}

const chats = createStore('troupe-web-chat', 'chat');

/** The saved chat, or a new one. */
export async function loadChat(): Promise<ChatHistory> {
  return (
    (await get<ChatHistory>('main', chats)) ?? { sessionKey: `web-${Date.now()}`, messages: [], lines: [] }
  );
}

/** Saves the chat (structured clone into IndexedDB). */
export function saveChat(chat: ChatHistory): Promise<void> {
  return set('main', chat, chats);
}
