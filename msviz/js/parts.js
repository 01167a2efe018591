// msviz/js/parts.js: small parts of a view: a new element, the live region's voice, the pointer.
//
// Each part of the view, here and in the other files, is a factory: given the elements and the model it works on, it
// returns a few functions, and `dispose` (where it holds timers, observers or
// listeners) undoes everything it did. board.js builds the elements and wires the
// parts together; what they draw comes from the model's traits and the reveal.

/** A new element: a tag, its class, and what it holds. */
export function make(tag, className, ...children) {
  const node = document.createElement(tag);
  node.className = className;
  node.append(...children);
  return node;
}

// What a screen reader is told: the caption (or the cell under the keyboard's cursor)
// goes to a polite live region, at most once every ANNOUNCE_MS: each step when stepping
// by hand, a few times a second during Play.
export const ANNOUNCE_MS = 400;

/** The live region's voice. Returns {say(text), dispose}: say writes `text` to the region now,
 *  or ANNOUNCE_MS after the last time (a later text replaces one still waiting). */
export function makeAnnouncer(live) {
  let at = -Infinity; // when the region was last written
  let timer = 0;
  return {
    say(text) {
      if (text === live.textContent) return;
      clearTimeout(timer);
      const write = () => {
        live.textContent = text;
        at = performance.now();
      };
      const wait = at + ANNOUNCE_MS - performance.now();
      if (wait <= 0) write();
      else timer = setTimeout(write, wait);
    },
    dispose: () => clearTimeout(timer),
  };
}

/** The board's pointer: a click acts on its cell; a right-click, a click with a modifier key, or
 *  a long press on a touch screen flags it, with no menu (neither the browser's nor JupyterLab's,
 *  which listens on the document). `onCell(event, flag)` gets each. Returns {dispose}. */
export function makePointer(canvas, root, onCell) {
  let pressed = false; // a long press has flagged: drop the click (or menu event) that ends it
  let timer = 0;
  const cancel = () => clearTimeout(timer);
  const handlers = {
    click: (e) => {
      if (pressed) pressed = false; // the end of a long press: it has flagged already
      else onCell(e, e.shiftKey || e.ctrlKey || e.metaKey || e.altKey);
    },
    contextmenu: (e) => {
      e.stopPropagation();
      e.preventDefault();
      if (pressed) pressed = false;
      else onCell(e, true);
    },
    pointerdown: (e) => {
      pressed = false;
      if (e.pointerType !== "touch") return;
      cancel();
      timer = setTimeout(() => {
        pressed = true;
        onCell(e, true);
      }, 500);
    },
    pointerup: cancel,
    pointercancel: cancel,
    pointerleave: cancel,
  };
  root.dataset.jpSuppressContextMenu = "";
  for (const [name, handler] of Object.entries(handlers)) canvas.addEventListener(name, handler);
  return {
    dispose() {
      cancel();
      for (const [name, handler] of Object.entries(handlers)) canvas.removeEventListener(name, handler);
    },
  };
}

/** Run `job` in a task of its own, as soon as may be: ahead of other tasks (the browser's scheduler,
 *  where it has one), else after those already waiting (nextTask). */
export function soon(job) {
  if (globalThis.scheduler?.postTask) globalThis.scheduler.postTask(job, { priority: "user-blocking" });
  else nextTask(job);
}

/** Run `job` in a next task, after those already waiting: a message to itself (a timer would wait
 *  4 ms once nested). */
export function nextTask(job) {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => job();
  channel.port2.postMessage(0);
}
