// happy-dom's Element#toString serialises the element's whole subtree (a browser
// answers "[object HTMLDivElement]"). Popper calls it on every tooltip update to
// tell a window from an element, which made a screen with result cards take
// seconds per update in these tests. Answer as a browser does.
Object.defineProperty(Element.prototype, "toString", {
  configurable: true,
  value(this: Element) { return `[object ${this.constructor.name}]`; },
});
