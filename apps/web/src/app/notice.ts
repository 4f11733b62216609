/** Shows a problem the user should know about (a failed save, a task that could not be restored) above the page. */
export function showNotice(text: string): void {
  let list = document.querySelector<HTMLElement>('#notices');
  if (!list) {
    list = document.createElement('ul');
    list.id = 'notices';
    list.setAttribute('role', 'alert');
    document.querySelector('header.top')?.after(list);
  }
  const item = document.createElement('li');
  item.textContent = text;
  list.append(item);
}
