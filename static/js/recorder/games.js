// What the entry controls know of a game beyond what the engine lists: which field a
// player decides first at the table, and better names for some values. A game's board
// module says so (``entryHints(staticView)``); everything else comes from the engine.

/** ``{order, describe(path, value)}`` from ``boardModule``'s hints; ``staticView`` is the
 * engine's static view (a board, to name its places). */
export function hintsFor(boardModule, staticView) {
  const hints = boardModule && boardModule.entryHints ? boardModule.entryHints(staticView) : {};
  return { order: hints.order || [], describe: hints.describe || (() => null) };
}
