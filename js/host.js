// The host page around the widget: its colour scheme and its clipboard. DOM reads only; the rules
// (hostTheme, luminance) are pure, in js/input.js.
import { hostTheme, luminance } from "./input.js";

/** The host's theme as the widget shows it: "dark" or "light". */
export function readTheme(el) {
  const doc = el.ownerDocument || document;
  const body = doc.body;
  const html = doc.documentElement;
  let background = null;
  // The first opaque background behind the widget, crossing shadow roots (marimo) up to the page.
  for (let node = /** @type {Node | null} */ (el); node && background === null; ) {
    if (node instanceof Element) background = luminance(getComputedStyle(node).backgroundColor);
    node = node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
  }
  return hostTheme({
    jpThemeLight: body?.getAttribute("data-jp-theme-light") ?? null,
    classes: [...(body?.classList ?? []), ...(html?.classList ?? [])],
    themeAttrs: [html?.getAttribute("theme"), body?.getAttribute("theme"), html?.getAttribute("data-theme"),
      body?.getAttribute("data-theme"), html?.getAttribute("data-color-mode"), html?.style.colorScheme],
    background,
    prefersDark: !!globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches,
  });
}

/** Apply the host's theme to `root` now and whenever the page's theme markers change; returns the disposer. */
export function followTheme(el, root) {
  const apply = () => {
    const theme = readTheme(el);
    root.classList.toggle("ipyms-dark", theme === "dark");
    root.classList.toggle("ipyms-light", theme === "light");
    if (root.dataset.theme !== theme) root.dataset.theme = theme;
  };
  let queued = false;
  let disposed = false;
  const queue = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      if (!disposed) apply();
    });
  };
  const observer = new MutationObserver(queue);
  const attributeFilter = ["class", "style", "theme", "data-theme", "data-jp-theme-light", "data-jp-theme-name", "data-color-mode"];
  for (const node of [document.documentElement, document.body]) if (node) observer.observe(node, { attributes: true, attributeFilter });
  const dark = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
  dark?.addEventListener?.("change", queue);
  apply();
  return () => {
    disposed = true;
    observer.disconnect();
    dark?.removeEventListener?.("change", queue);
  };
}

/** Put `text` on the clipboard (the API, or a hidden textarea where the API is not allowed); true if it worked. */
export async function copyText(text, root) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    root.appendChild(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
    area.remove();
    root.focus({ preventScroll: true });
    return ok;
  }
}
