/** Small DOM helpers: elements are built with text and attributes, never from HTML strings. */

type Child = Node | string;

/** An element with attributes (`hidden: ''` for a boolean one) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** The page's element with this id, of the expected kind. */
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof kind)) throw new Error(`#${id} is missing from the page`);
  return element;
}

/** Text only a screen reader reads (the visible text says it already, by its place). */
export function hiddenText(text: string): HTMLSpanElement {
  return h('span', { class: 'vh' }, text);
}
