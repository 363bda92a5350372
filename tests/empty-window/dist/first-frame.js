// The first frame's time, as Suanli marks its own (suanli:first-frame).
requestAnimationFrame(() => performance.mark("suanli:first-frame"));
