// What the entry controls know of a game beyond what the engine lists: which field a
// player decides first at the table. A game's board module says so
// (``entryHints(staticView)``); the words of every field and value come from the engine.

/** ``{order}`` from ``boardModule``'s hints; ``staticView`` is the engine's static view. */
export function hintsFor(boardModule, staticView) {
  const hints = boardModule && boardModule.entryHints ? boardModule.entryHints(staticView) : {};
  return { order: hints.order || [] };
}
