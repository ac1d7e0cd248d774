// What the entry controls know per game, beyond what the engine lists: which field a
// player decides first at the table, and better names for some values. Everything
// else about a game's actions comes from the engine.

const HINTS = {
  // At the table a player picks up an envelope first, then decides what to do in it.
  "cloak-and-dagger": { order: ["envelope", "type"] },
  // A detective first picks which pawn moves, then where to and by which ticket.
  "mister-x": { order: ["seat", "type", "pawn", "to", "ticket"] },
  // A card, then where it acts.
  "cryptid-urban-legends": { order: ["type", "card", "as", "space", "color", "dir"] },
};

/** ``{order, describe(path, value)}`` for ``game``; ``staticView`` is the engine's static
 * view (the Mister X board, to name cities). */
export function hintsFor(game, staticView) {
  const hints = HINTS[game] || {};
  let describe = () => null;
  if (game === "mister-x" && staticView && staticView.board) {
    const names = new Map(staticView.board.cities.map((c) => [c.id, c.name]));
    describe = (path, value) => {
      const last = path.split("/").pop();
      return (last === "to" || last === "start") && names.has(value) ? `${value} ${names.get(value)}` : null;
    };
  }
  return { order: hints.order || [], describe };
}
