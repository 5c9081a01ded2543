// The little of the DOM that dom.js's h() and the shared page tools use:
// elements with attributes, classes, text, children and listeners. Enough to check
// what a page tool does to a button or a status line, not to lay out a page.

class FakeElement {
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    this.attributes = new Map();
    this.children = [];
    this.listeners = {};
    this.text = '';
  }

  setAttribute(name, value) { this.attributes.set(name, String(value)); }

  getAttribute(name) { return this.attributes.has(name) ? this.attributes.get(name) : null; }

  removeAttribute(name) { this.attributes.delete(name); }

  hasAttribute(name) { return this.attributes.has(name); }

  addEventListener(kind, listener) { (this.listeners[kind] ??= []).push(listener); }

  /** Kept in the class attribute, as the browser does. */
  get classList() {
    const names = () => (this.getAttribute('class') ?? '').split(' ').filter(Boolean);
    const write = (list) => this.setAttribute('class', list.join(' '));
    return {
      contains: (name) => names().includes(name),
      add: (name) => { if (!names().includes(name)) write([...names(), name]); },
      remove: (name) => write(names().filter((n) => n !== name)),
      toggle: (name, force = !names().includes(name)) => {
        write(force ? [...names().filter((n) => n !== name), name] : names().filter((n) => n !== name));
        return force;
      },
    };
  }

  append(...nodes) {
    for (const node of nodes) this.children.push(typeof node === 'string' ? { text: node } : node);
  }

  get textContent() { return this.text + this.children.map((child) => child.textContent ?? child.text).join(''); }

  set textContent(value) {
    this.children = [];
    this.text = String(value);
  }
}

/** Puts a fake `document` on globalThis; returns a function that takes it away. */
export function installFakeDocument() {
  const had = Object.hasOwn(globalThis, 'document');
  const previous = globalThis.document;
  globalThis.document = {
    createElement: (tag) => new FakeElement(tag),
    // An icon's SVG (icon.js): the namespace does not matter here.
    createElementNS: (_namespace, tag) => new FakeElement(tag),
  };
  return () => {
    if (had) globalThis.document = previous;
    else delete globalThis.document;
  };
}
