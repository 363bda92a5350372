// In the UI tests, stylesheets of node packages (happy-dom lays nothing out).
export {};
