// The keyboard shortcuts' strings, in English (the source language): the help overlay and what each key does.
export const shortcuts = {
  buttonTitle: 'Keyboard shortcuts (?)',
  button: 'Keyboard shortcuts',
  title: 'Keyboard shortcuts',
  close: 'Close',
  or: ' or ',
  note: 'Shortcuts do nothing while you type in a field: press Tab or click outside it first. Escape closes this list.',
  /** What each action does, by its id in shortcuts.ts. */
  actions: {
    start: 'Start the crawl set in New crawl',
    pauseResume: 'Pause the crawl, or resume it',
    stop: 'Stop the crawl (threads finish the URL in hand)',
    filter: "Focus the view's filter or search",
    next: 'Next URL',
    previous: 'Previous URL',
    detail: "Open the URL's details (the first URL when none is chosen)",
    help: 'Show or hide this list',
  },
};
