// Asking the views again while their answer is pending, as the workbench does (results-window.ts, use-live.ts).

/**
 * Asks again, every 25 ms for at most 10 s, until `done` holds of the answer: what the workbench's table, detail pane
 * and crawl map do while an answer is pending (scoresPending, contentPending). The answers in the order they came.
 */
export async function askUntil<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T[]> {
  const answers = [await ask()];
  for (let i = 0; i < 400 && !done(answers[answers.length - 1]!); i++) {
    await new Promise((r) => setTimeout(r, 25));
    answers.push(await ask());
  }
  return answers;
}
