import { createMemoryStore } from '@troupe/core';
import { mountInspector } from './inspector/index.js';
import { startRouter } from './router.js';

const outlet = document.querySelector<HTMLElement>('#outlet')!;
const nav = document.querySelector<HTMLElement>('#nav')!;
const store = createMemoryStore();

function placeholder(text: string) {
  return (element: HTMLElement) => {
    const paragraph = document.createElement('p');
    paragraph.textContent = text;
    element.append(paragraph);
    return undefined;
  };
}

startRouter(outlet, nav, [
  { path: '/', label: 'Chat', mount: placeholder('Chat with the main agent.') },
  { path: '/tasks', label: 'Tasks', mount: placeholder('Task board.') },
  { path: '/agents', label: 'Agents', mount: placeholder('Agents.') },
  { path: '/inspector', label: 'Inspector', mount: (element) => mountInspector(element, { store }) },
]);
